// Writes the viewer's favicons from resources/icon.svg: the SVG itself, and favicon.ico (PNG
// images at 16, 32 and 48 px drawn by Chromium) for browsers and pages that ask for /favicon.ico.
// Run it again after changing the icon: node scripts/make-favicon.mjs
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = fileURLToPath(new URL('../', import.meta.url));
const svg = readFileSync(`${root}resources/icon.svg`, 'utf8');
const out = `${root}src/renderer/public/`;
const SIZES = [16, 32, 48];

const browser = await chromium.launch({ executablePath: process.env.SCANDESK_CHROMIUM ?? '/usr/bin/chromium' });
const images = [];
try {
  for (const size of SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    images.push(await page.screenshot({ omitBackground: true }));
    await page.close();
  }
} finally {
  await browser.close();
}

// ICO: a 6-byte header, a 16-byte entry per image, then the images (PNG, as Vista and later read).
const header = Buffer.alloc(6 + 16 * images.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(images.length, 4);
let offset = header.length;
images.forEach((png, index) => {
  const entry = 6 + 16 * index;
  header.writeUInt8(SIZES[index], entry);
  header.writeUInt8(SIZES[index], entry + 1);
  header.writeUInt16LE(1, entry + 4);
  header.writeUInt16LE(32, entry + 6);
  header.writeUInt32LE(png.length, entry + 8);
  header.writeUInt32LE(offset, entry + 12);
  offset += png.length;
});
writeFileSync(`${out}favicon.ico`, Buffer.concat([header, ...images]));
copyFileSync(`${root}resources/icon.svg`, `${out}favicon.svg`);
