import { existsSync } from 'node:fs';
import { renderAsync } from '@resvg/resvg-js';
import pixelmatch from 'pixelmatch';
import { chromium, type Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTemplate, renderSvg, templateText, type SealSpec } from '../index';
import { glyphsFor, loadFont } from './index';

/**
 * The browser draws the same SVG from the same glyph set as the server (the preview canvas): this
 * checks that Chromium's picture of it matches resvg's, edges aside.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM)
  console.warn(`seal browser parity skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

/**
 * Share of pixels allowed to differ (pixelmatch threshold 0.1). Measured: 0 to 0.03 %, on edges where
 * Skia's and resvg's anti-aliasing round differently; a moved glyph costs far more.
 */
const TOLERANCE = 0.002;

/** The few browser globals the page function uses (this project's Node typings carry no DOM). */
interface BrowserGlobals {
  Image: new () => { src: string; naturalWidth: number; naturalHeight: number; decode(): Promise<void> };
  document: {
    createElement(tag: 'canvas'): {
      width: number;
      height: number;
      getContext(kind: '2d'): { drawImage(image: unknown, x: number, y: number): void } | null;
      toDataURL(type: string): string;
    };
  };
}

const SPECS: Record<string, SealSpec> = {
  official: {
    sealType: 0,
    name: '上海某某信息科技有限公司',
    serial: '3101150123456',
    securityLines: true,
    doubleBorder: true,
  },
  invoice: {
    sealType: 2,
    name: '深圳市某某电子商务有限公司',
    serial: '91440300MA5FXXXX1A',
    title: '发票专用章',
  },
  personal: { sealType: 3, name: '王小明' },
  finance: { sealType: 5, name: '广州某某贸易有限公司' },
  twoTitles: {
    sealType: 4,
    name: '杭州某某网络技术有限公司',
    title0: '人力资源部',
    title: '专用章',
    serial: '3301060011223',
  },
};

describe.skipIf(!HAS_CHROMIUM)('the same SVG in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  for (const [name, spec] of Object.entries(SPECS)) {
    it(`draws the ${name} seal as resvg does`, async () => {
      const t = createTemplate(spec);
      const svg = renderSvg(t, glyphsFor(templateText(t), await loadFont()));
      const reference = PNG.sync.read(
        (
          await renderAsync(svg, {
            fitTo: { mode: 'original' },
            font: { loadSystemFonts: false },
            shapeRendering: 2,
          })
        ).asPng(),
      );
      const page = await browser.newPage();
      try {
        // As the preview does: the SVG as an image, drawn onto a canvas of its pixel size.
        const dataUrl = await page.evaluate(async (source) => {
          const { Image, document } = globalThis as unknown as BrowserGlobals;
          const img = new Image();
          img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(source)}`;
          await img.decode();
          const canvas = document.createElement('canvas');
          canvas.width = img.naturalWidth;
          canvas.height = img.naturalHeight;
          canvas.getContext('2d')!.drawImage(img, 0, 0);
          return canvas.toDataURL('image/png');
        }, svg);
        const drawn = PNG.sync.read(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
        expect([drawn.width, drawn.height]).toEqual([reference.width, reference.height]);
        const browserPixels = drawn.data;
        const differing = pixelmatch(
          browserPixels,
          reference.data,
          undefined,
          reference.width,
          reference.height,
          {
            threshold: 0.1,
          },
        );
        expect(differing / (reference.width * reference.height)).toBeLessThan(TOLERANCE);
        // And the picture is not empty in either: a blank canvas would match a blank reference.
        let ink = 0;
        for (let i = 3; i < browserPixels.length; i += 4) if (browserPixels[i]! > 128) ink++;
        expect(ink / (reference.width * reference.height)).toBeGreaterThan(0.05);
      } finally {
        await page.close();
      }
    }, 60_000);
  }
});
