// What render.mjs and pmrem_dump.mjs share: a small HTTP server on 127.0.0.1 for the page and
// its files, and Debian's Chromium started headless with WebGL2 on SwiftShader (software, so the
// same bytes on every machine) through puppeteer-core, the page opened and waited for.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// three (npm, the version in package.json), served at /three/.
export const THREE_DIR = path.join(HERE, 'node_modules', 'three');

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html', '.json': 'application/json',
                '.gltf': 'model/gltf+json', '.glb': 'model/gltf-binary', '.png': 'image/png', '.jpg': 'image/jpeg',
                '.jpeg': 'image/jpeg', '.bin': 'application/octet-stream', '.hdr': 'application/octet-stream' };

// Serves `html` at / (and /index.html), three at /three/ and each folder of `roots`
// ({'/prefix/': folder}) below its prefix; nothing outside those folders. Returns the server and
// its base URL.
async function serve(html, roots) {
    const all = { '/three/': THREE_DIR, ...roots };
    const server = http.createServer((req, res) => {
        const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
        if (url === '/' || url === '/index.html') {
            res.writeHead(200, { 'content-type': 'text/html' });
            res.end(html);
            return;
        }
        for (const [prefix, root] of Object.entries(all)) {
            if (!url.startsWith(prefix)) continue;
            const file = path.resolve(root, '.' + url.slice(prefix.length - 1));
            if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) break;
            res.writeHead(200, { 'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream' });
            fs.createReadStream(file).pipe(res);
            return;
        }
        res.writeHead(404);
        res.end();
    });
    await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
    return { server, base: `http://127.0.0.1:${server.address().port}` };
}

// Serves `html` and `roots` (as serve does), starts Chromium at `chromium` with `args` added to
// the common flags, opens the page, waits for its `window.pageReady`, then awaits
// `body(page, base)`. The page's errors go to stderr; a failure is one line `name: message` on
// stderr. Browser and server are closed in every case. Returns true on success.
export async function runInBrowser({ name, html, roots = {}, chromium, args = [] }, body) {
    const { server, base } = await serve(html, roots);
    let browser;
    try {
        browser = await puppeteer.launch({
            executablePath: chromium,
            headless: false,                            // the flags below say headless=new themselves
            args: ['--headless=new', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
                   '--ignore-gpu-blocklist', '--disable-gpu-driver-bug-workarounds', ...args, '--no-first-run',
                   '--disable-extensions'],
            protocolTimeout: 600000,
        });
        const page = await browser.newPage();
        page.on('console', (m) => {
            // ANGLE's performance notes ("GPU stall due to ReadPixels") are not errors.
            if ((m.type() === 'error' || m.type() === 'warn') && !m.text().includes('GL Driver Message')) console.error(`page ${m.type()}: ${m.text()}`);
        });
        page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
        await page.goto(`${base}/index.html`, { waitUntil: 'load' });
        await page.waitForFunction('window.pageReady === true', { timeout: 60000 });
        await body(page, base);
        return true;
    } catch (e) {
        console.error(`${name}: ${e.message ?? e}`);
        return false;
    } finally {
        if (browser) await browser.close();
        server.close();
    }
}
