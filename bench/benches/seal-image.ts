/**
 * Seal image bench, no server: seal PNGs per second for each seal type through the whole engine
 * (renderPng: template check, glyph outlines, path-only SVG, resvg, indexed PNG), one picture at a
 * time in this process, beside a baseline of the same pixel size measured in the same run, turn about
 * with it: the seal's outline alone through the same rasteriser and encoder (svgToPng), the floor of
 * any picture that size. `svgPerSecond` is the part the browser runs too (template to SVG).
 */
import {
  createTemplate,
  renderSvg,
  templateText,
  type SealSpec,
  type SealTemplate,
} from '@openseal/seal-image';
import { glyphsFor, loadFont, renderPng, svgToPng } from '@openseal/seal-image/node';
import { emit, note, round } from '../lib/report';

const CASES: { label: string; spec: SealSpec }[] = [
  {
    label: 'official seal, 12-character name, serial',
    spec: { sealType: 0, name: '上海某某信息科技有限公司', serial: '3101150123456' },
  },
  {
    label: 'contract seal, 12-character name, title, serial',
    spec: { sealType: 1, name: '北京某某文化传媒有限公司', title: '合同专用章', serial: '1101080098765' },
  },
  {
    label: 'invoice seal, 13-character name, taxpayer number, title',
    spec: {
      sealType: 2,
      name: '深圳市某某电子商务有限公司',
      serial: '91440300MA5FXXXX1A',
      title: '发票专用章',
    },
  },
  { label: 'personal seal, 3 characters', spec: { sealType: 3, name: '王小明' } },
  {
    label: 'two-title seal, 12-character name, two titles, serial',
    spec: {
      sealType: 4,
      name: '杭州某某网络技术有限公司',
      title0: '人力资源部',
      title: '专用章',
      serial: '3301060011223',
    },
  },
  { label: 'finance seal, 15 characters', spec: { sealType: 5, name: '广州某某贸易有限公司' } },
];

interface Rate {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  n: number;
}

function summarise(samples: number[]): Rate {
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const total = samples.reduce((sum, v) => sum + v, 0);
  return { perSecond: (samples.length / total) * 1000, p50Ms: at(0.5), p99Ms: at(0.99), n: samples.length };
}

/**
 * Runs the operations in turn, one of each per round, for `seconds` after a short unreported
 * warm-up: on a shared machine both then meet the same load, so their ratio holds even when the
 * absolute figures move. Rates are per second of each operation's own time.
 */
async function paired(seconds: number, ops: (() => Promise<unknown> | unknown)[]): Promise<Rate[]> {
  const warmUntil = performance.now() + Math.min(1000, seconds * 200);
  while (performance.now() < warmUntil) for (const op of ops) await op();
  const samples: number[][] = ops.map(() => []);
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end)
    for (const [i, op] of ops.entries()) {
      const s = performance.now();
      await op();
      samples[i]!.push(performance.now() - s);
    }
  return samples.map(summarise);
}

/** The seal's outline alone, same size and ink: what rasterising and encoding cost before any text. */
function outlineSvg(t: SealTemplate): string {
  const { width: W, height: H, sealType, fontColor } = t.baseInfo;
  const bw = t.borderInfo.width;
  const shape =
    sealType === 3 || sealType === 5
      ? `<rect x="${bw / 2}" y="${bw / 2}" width="${W - bw}" height="${H - bw}"`
      : `<ellipse cx="${W / 2}" cy="${H / 2}" rx="${W / 2 - bw / 2}" ry="${H / 2 - bw / 2}"`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${shape} fill="none" stroke="${fontColor}" stroke-width="${bw}"/></svg>`;
}

export async function runSealImage(opts: { seconds: number }): Promise<boolean> {
  let ok = true;
  const t0 = performance.now();
  const font = await loadFont();
  emit({ bench: 'seal-image-font', db: 'none', font: font.name, loadMs: round(performance.now() - t0, 1) });
  for (const { label, spec } of CASES) {
    try {
      note(`seal image: type ${spec.sealType}, ${label}`);
      const t = createTemplate(spec);
      const first = await renderPng(t, { font });
      const outline = outlineSvg(t);
      const [seal, baseline, svg] = (await paired(opts.seconds, [
        () => renderPng(t, { font }),
        () => svgToPng(outline, [t.baseInfo.fontColor]),
        () => {
          const tt = createTemplate(spec);
          return renderSvg(tt, glyphsFor(templateText(tt), font));
        },
      ])) as [Rate, Rate, Rate];
      emit({
        bench: 'seal-image',
        db: 'none',
        sealType: spec.sealType,
        case: label,
        widthPx: first.widthPx,
        heightPx: first.heightPx,
        pngBytes: first.png.length,
        pngPerSecond: round(seal.perSecond, 1),
        p50Ms: round(seal.p50Ms, 2),
        p99Ms: round(seal.p99Ms, 2),
        images: seal.n,
        svgPerSecond: round(svg.perSecond, 1),
        baselinePerSecond: round(baseline.perSecond, 1),
        baseline: 'the outline alone, same size, same rasteriser and encoder',
        ratioToBaseline: round(seal.perSecond / baseline.perSecond, 3),
      });
    } catch (err) {
      ok = false;
      note(`seal image type ${spec.sealType} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return ok;
}
