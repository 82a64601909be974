// Runs the Khronos glTF validator (npm gltf-validator) on .gltf / .glb files and prints one
// line per file (errors, warnings, infos) and every error and warning it reports. Exit 0 when
// no file has an error, 1 when one has, 2 on bad usage.
//
//   node tools/gltf_validator/validate.mjs FILE.gltf FILE.glb ...
//
// The package is installed by tools/setup.sh (npm ci in this folder).
import fs from 'node:fs';
import path from 'node:path';
import validator from 'gltf-validator';

const files = process.argv.slice(2);
if (files.length === 0) {
    console.error('usage: node validate.mjs FILE.gltf|FILE.glb ...');
    process.exit(2);
}
let failed = false;
for (const file of files) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
        uri: path.basename(file),
        maxIssues: 0,
        externalResourceFunction: (uri) =>
            Promise.resolve(new Uint8Array(fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(uri))))),
    });
    const { numErrors, numWarnings, numInfos, messages } = report.issues;
    console.log(`${file}: ${numErrors} errors, ${numWarnings} warnings, ${numInfos} infos`);
    for (const m of messages) {
        if (m.severity <= 1) console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
    }
    if (numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
