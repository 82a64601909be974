// Runs the Khronos glTF validator (npm gltf-validator) on .gltf / .glb files and prints one
// line per file (errors, warnings, infos) and every error and warning it reports; with --json,
// one JSON document instead: [{"file", "errors", "warnings", "infos", "messages": [{"severity",
// "code", "pointer", "message"}] (errors and warnings only), "unused": [pointer, ...] (the
// infos UNUSED_OBJECT: objects nothing in the asset refers to)}]. Exit 0 when no file has an
// error, 1 when one has, 2 on bad usage.
//
//   node tools/gltf_validator/validate.mjs [--json] FILE.gltf FILE.glb ...
//
// The package is installed by tools/setup.sh (npm ci in this folder).
import fs from 'node:fs';
import path from 'node:path';
import validator from 'gltf-validator';

const args = process.argv.slice(2);
const asJson = args[0] === '--json';
const files = asJson ? args.slice(1) : args;
if (files.length === 0) {
    console.error('usage: node validate.mjs [--json] FILE.gltf|FILE.glb ...');
    process.exit(2);
}
let failed = false;
const results = [];
for (const file of files) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
        uri: path.basename(file),
        maxIssues: 0,
        externalResourceFunction: (uri) =>
            Promise.resolve(new Uint8Array(fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(uri))))),
    });
    const { numErrors, numWarnings, numInfos, messages } = report.issues;
    const serious = messages.filter((m) => m.severity <= 1);
    results.push({ file, errors: numErrors, warnings: numWarnings, infos: numInfos,
                   messages: serious.map((m) => ({ severity: m.severity, code: m.code, pointer: m.pointer ?? '', message: m.message })),
                   unused: messages.filter((m) => m.code === 'UNUSED_OBJECT').map((m) => m.pointer ?? '') });
    if (!asJson) {
        console.log(`${file}: ${numErrors} errors, ${numWarnings} warnings, ${numInfos} infos`);
        for (const m of serious) console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
    }
    if (numErrors > 0) failed = true;
}
if (asJson) console.log(JSON.stringify(results));
process.exit(failed ? 1 : 0);
