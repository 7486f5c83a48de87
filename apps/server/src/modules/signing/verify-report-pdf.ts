/**
 * The verification report as a PDF document, in Chinese and English: the file, the overall verdict, one
 * block per signature, and how to check the evidence-log leaf that records the verification. The text is
 * set in the project's shipped seal font (Noto Serif SC, OFL), embedded as a subset of the glyphs used.
 */
import type { contracts } from '@openseal/core';
import * as fontkit from 'fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { z } from 'zod';

type Report = z.infer<typeof contracts.pdfVerifyResponse>;
type Signature = Report['signatures'][number];

const require = createRequire(import.meta.url);

/** The seal-image package ships the fonts; they are resolved from where it resolves them. */
const FONT_FILES = {
  regular: '@expo-google-fonts/noto-serif-sc/400Regular/NotoSerifSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-serif-sc/700Bold/NotoSerifSC_700Bold.ttf',
} as const;

let fontBytes: Promise<{ regular: Buffer; bold: Buffer }> | null = null;
/** Read once per process: 15 MB each, parsed lazily by fontkit; only the glyphs drawn are embedded. */
function loadFonts() {
  fontBytes ??= (async () => {
    const fromSealImage = createRequire(require.resolve('@openseal/seal-image/node'));
    const [regular, bold] = await Promise.all([
      readFile(fromSealImage.resolve(FONT_FILES.regular)),
      readFile(fromSealImage.resolve(FONT_FILES.bold)),
    ]);
    return { regular, bold };
  })().catch((err: unknown) => {
    fontBytes = null;
    throw err;
  });
  return fontBytes;
}

/**
 * pdf-lib's font engine through fontkit 2 (the one the seal images use). The fork pdf-lib ships
 * (@pdf-lib/fontkit) writes the subset's glyph offsets in the short format without padding the glyphs to
 * even lengths, so most glyphs of this font come out blank (text still extracts, nothing is drawn);
 * fontkit 2 keeps the font's own offset format. pdf-lib asks a subset for an event stream; fontkit 2
 * encodes in one call, so the stream is emulated.
 */
type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
const FONTKIT: Fontkit = {
  create(data: Uint8Array) {
    const font = fontkit.create(Buffer.from(data)) as fontkit.Font;
    const createSubset = font.createSubset.bind(font);
    return Object.assign(font, {
      createSubset() {
        const subset = createSubset();
        return Object.assign(subset, {
          encodeStream() {
            const handlers = new Map<string, (arg?: unknown) => void>();
            const stream = {
              on(event: 'data' | 'end' | 'error', cb: (arg?: unknown) => void) {
                handlers.set(event, cb);
                return stream;
              },
            };
            queueMicrotask(() => {
              try {
                handlers.get('data')?.(subset.encode());
                handlers.get('end')?.();
              } catch (err) {
                handlers.get('error')?.(err);
              }
            });
            return stream;
          },
        });
      },
    }) as unknown as ReturnType<Fontkit['create']>;
  },
};

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const LABEL_WIDTH = 135;
const COLORS = {
  text: rgb(0.13, 0.13, 0.13),
  muted: rgb(0.42, 0.42, 0.42),
  rule: rgb(0.82, 0.84, 0.87),
  valid: rgb(0.13, 0.55, 0.13),
  invalid: rgb(0.8, 0.16, 0.16),
  neutral: rgb(0.55, 0.45, 0.1),
  brand: rgb(0.72, 0.11, 0.11),
};

/** `2025-01-02 03:04:05 UTC` from an ISO time; other text is kept as it is. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

const VERDICT = {
  valid: '有效 / Valid',
  invalid: '无效 / Invalid',
  indeterminate: '待定：签名人未经本平台确认 / Indeterminate: signer not confirmed by this platform',
  'no-signatures': '未发现签名 / No signatures found',
} as const;

const INDETERMINATE_CHANGES =
  '待定：签署后文件新增了可见内容 / Indeterminate: content was added after signing';

/** Why a signature is indeterminate: its signer is not confirmed, or only visible content came after it. */
function onlyChangesUndecided(sig: Signature): boolean {
  const decisive = sig.findings.filter((f) => f.severity === 'indeterminate');
  return (
    sig.chain === 'trusted' && decisive.length > 0 && decisive.every((f) => f.code.startsWith('changes.'))
  );
}

/** The verdict line of a signature, or of the document over its signatures, saying why when indeterminate. */
function verdictLabel(verdict: keyof typeof VERDICT, sigs: readonly Signature[]): string {
  if (verdict !== 'indeterminate') return VERDICT[verdict];
  const undecided = sigs.filter((s) => s.verdict === 'indeterminate');
  return undecided.length > 0 && undecided.every(onlyChangesUndecided)
    ? INDETERMINATE_CHANGES
    : VERDICT.indeterminate;
}

const KIND = {
  signature: '签名 / Signature',
  certification: '认证签名 / Certification signature',
  'document-timestamp': '文档时间戳 / Document timestamp',
} as const;

const CHAIN = {
  trusted: '可信：证书链至平台信任的根证书 / Trusted: the chain ends at a root the platform trusts',
  untrusted: '不可信：签发者不在平台信任列表中 / Not trusted: the issuer is unknown to the platform',
  invalid: '无效：证书链校验失败 / Invalid: the certificate chain does not verify',
} as const;

const MODIFIED = {
  none: '签署后未修改 / No changes after signing',
  allowed: '签署后仅有允许的修改 / Only permitted changes after signing',
  disallowed: '签署后有不允许的修改 / Changes after signing that are not permitted',
} as const;

const REVOCATION = {
  good: '未吊销 / Not revoked',
  revoked: '已吊销 / Revoked',
  unknown: '未知 / Unknown',
} as const;

const CHANGE_KIND: Record<Signature['changes'][number]['kind'], string> = {
  signature: '新签名 / signature',
  dss: '验证数据 / validation data',
  'form-fill': '表单填写 / form filling',
  annotation: '批注 / annotation',
  content: '页面内容 / page content',
  'page-added': '新增页面 / page added',
  'page-removed': '删除页面 / page removed',
  catalog: '文档目录 / catalogue',
  other: '其他 / other',
};

function yesNo(v: boolean | null, yes: string, no: string): string {
  return v === null ? '未知 / Unknown' : v ? yes : no;
}

/** Page and position of a signature's widget, in PDF points from the page's lower-left corner. */
export function placeText(sig: Pick<Signature, 'page' | 'rect'>): string {
  const r = sig.rect;
  const visible = r && Math.abs(r[2] - r[0]) > 0 && Math.abs(r[3] - r[1]) > 0;
  if (!sig.page && !visible) return '不可见签名 / Invisible signature';
  const page = sig.page ? `第 ${sig.page} 页 / page ${sig.page}` : '';
  if (!visible) return `${page}，不可见签名 / invisible`;
  const [x1, y1, x2, y2] = r.map((v) => Math.round(v * 10) / 10) as [number, number, number, number];
  return `${page}，位置 / position (${x1}, ${y1}) – (${x2}, ${y2}) pt`;
}

/** Label–value rows of one signature, in the order a reader checks them. */
export function signatureRows(sig: Signature, revisions: number): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ['结论 / Verdict', verdictLabel(sig.verdict, [sig])],
    ['类型 / Kind', `${KIND[sig.kind]} (${sig.subFilter})`],
    ['签名域 / Field', sig.field],
    ['签署人 / Signer', sig.signer ?? '—'],
    ['证书主题 / Certificate subject', sig.signerSubject ?? '—'],
    ['证书签发者 / Certificate issuer', sig.signerIssuer ?? '—'],
    ['证书序列号 / Serial number', sig.serialHex ?? '—'],
    [
      '证书有效期 / Certificate validity',
      sig.certNotBefore || sig.certNotAfter
        ? `${formatTime(sig.certNotBefore)} – ${formatTime(sig.certNotAfter)}`
        : '—',
    ],
    [
      '签署时证书状态 / At signing time',
      yesNo(
        sig.validAtSigningTime,
        '证书在签署时有效 / The certificate was valid',
        '证书在签署时无效 / The certificate was not valid',
      ),
    ],
    ['证书链 / Certificate chain', CHAIN[sig.chain]],
    ['签署时间 / Signing time', formatTime(sig.signingTime)],
    [
      '时间戳 / Timestamp',
      sig.timestamp
        ? `${formatTime(sig.timestamp.time)}，${sig.timestamp.valid ? '有效 / valid' : '无效 / invalid'}${
            sig.timestamp.tsa ? `；${sig.timestamp.tsa}` : ''
          }`
        : '无 / None',
    ],
    [
      '完整性 / Integrity',
      sig.integrity === 'valid'
        ? '签名值正确，签署内容未被篡改 / The signature matches the signed bytes'
        : sig.integrity === 'unknown'
          ? `无法校验 / Cannot be checked${sig.integrityReason ? `: ${sig.integrityReason}` : ''}`
          : `签名值不正确或内容被篡改 / The signature does not match${sig.integrityReason ? `: ${sig.integrityReason}` : ''}`,
    ],
    [
      '覆盖范围 / Coverage',
      sig.coversWholeDocument
        ? '覆盖整个文档 / Covers the whole document'
        : `签署第 ${sig.signedRevision + 1} 个版本（共 ${revisions} 个）/ Signs revision ${sig.signedRevision + 1} of ${revisions}${
            sig.byteRangeProblem ? `; ${sig.byteRangeProblem}` : ''
          }`,
    ],
    [
      '吊销状态 / Revocation',
      `${REVOCATION[sig.revocation.status]}${
        sig.revocation.revokedAt ? `，${formatTime(sig.revocation.revokedAt)}` : ''
      }${sig.revocation.reason ? `；${sig.revocation.reason}` : ''}（来源 / source: ${sig.revocation.source}）`,
    ],
    ['签署后修改 / Changes after signing', MODIFIED[sig.modifiedAfter]],
  ];
  for (const c of sig.changes)
    rows.push([
      `  版本 / revision ${c.revision + 1}`,
      `${CHANGE_KIND[c.kind]}：${c.detail}${
        c.text && !c.detail.includes(c.text) ? ` “${c.text}”` : ''
      }（${c.allowed ? '允许 / permitted' : '不允许 / not permitted'}）`,
    ]);
  if (sig.docMdp) rows.push(['认证权限 / DocMDP', `P=${sig.docMdp}`]);
  rows.push(['页面与位置 / Page and position', placeText(sig)]);
  if (sig.reasons.length > 0) rows.push(['原因 / Reasons', sig.reasons.join('; ')]);
  return rows;
}

/** Text broken into lines no wider than `width`: at spaces where it can, anywhere in CJK text. */
export function wrapText(text: string, width: number, measure: (s: string) => number): string[] {
  const out: string[] = [];
  for (const para of text.replace(/\r/g, '').split('\n')) {
    let line = '';
    for (const ch of Array.from(para.replace(/[\t\f\v]/g, ' '))) {
      const next = line + ch;
      if (measure(next) <= width || line === '') {
        line = next;
        continue;
      }
      const space = line.lastIndexOf(' ');
      if (ch !== ' ' && space > line.length / 2) {
        out.push(line.slice(0, space));
        line = line.slice(space + 1) + ch;
      } else {
        out.push(line);
        line = ch === ' ' ? '' : ch;
      }
    }
    out.push(line);
  }
  return out;
}

class Writer {
  readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.newPage();
  }

  get width() {
    return A4[0] - 2 * MARGIN;
  }

  newPage() {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    this.y = A4[1] - MARGIN;
  }

  ensure(height: number) {
    if (this.y - height < MARGIN + 20) this.newPage();
  }

  gap(h: number) {
    this.y -= h;
  }

  text(text: string, opts: { size?: number; font?: PDFFont; color?: RGB; x?: number; width?: number } = {}) {
    const size = opts.size ?? 10;
    const font = opts.font ?? this.regular;
    const x = MARGIN + (opts.x ?? 0);
    const lines = wrapText(text, opts.width ?? this.width - (opts.x ?? 0), (s) =>
      font.widthOfTextAtSize(s, size),
    );
    for (const line of lines) {
      this.ensure(size * 1.5);
      this.y -= size * 1.5;
      this.page.drawText(line, { x, y: this.y + size * 0.35, size, font, color: opts.color ?? COLORS.text });
    }
  }

  row(label: string, value: string, valueColor?: RGB, size = 9.5) {
    const valueWidth = this.width - LABEL_WIDTH;
    const measure = (f: PDFFont) => (s: string) => f.widthOfTextAtSize(s, size);
    const labelLines = wrapText(label, LABEL_WIDTH - 8, measure(this.regular));
    const valueLines = wrapText(value, valueWidth, measure(this.regular));
    const count = Math.max(labelLines.length, valueLines.length);
    this.ensure(count * size * 1.5);
    const top = this.y;
    // All label lines, then all value lines: text extraction (and screen readers) read each whole.
    const draw = (lines: string[], x: number, color: RGB) =>
      lines.forEach((line, i) =>
        this.page.drawText(line, {
          x,
          y: top - (i + 1) * size * 1.5 + size * 0.35,
          size,
          font: this.regular,
          color,
        }),
      );
    draw(labelLines, MARGIN, COLORS.muted);
    draw(valueLines, MARGIN + LABEL_WIDTH, valueColor ?? COLORS.text);
    this.y = top - count * size * 1.5;
  }

  rule(color: RGB = COLORS.rule) {
    this.ensure(8);
    this.y -= 6;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4[0] - MARGIN, y: this.y },
      thickness: 0.6,
      color,
    });
    this.y -= 4;
  }

  heading(text: string, color: RGB = COLORS.text) {
    // Keep a heading with at least a few lines of what it heads.
    this.ensure(90);
    this.gap(8);
    this.text(text, { size: 12.5, font: this.bold, color });
    this.rule();
  }

  verdictBox(text: string, color: RGB) {
    const h = 34;
    this.ensure(h + 8);
    this.y -= h + 4;
    this.page.drawRectangle({
      x: MARGIN,
      y: this.y,
      width: this.width,
      height: h,
      borderColor: color,
      borderWidth: 1.2,
      color: rgb(1, 1, 1),
    });
    this.page.drawText(text, { x: MARGIN + 14, y: this.y + 11, size: 15, font: this.bold, color });
    this.y -= 6;
  }
}

const verdictColor = (v: Report['verdict'] | Signature['verdict']) =>
  v === 'valid' ? COLORS.valid : v === 'invalid' ? COLORS.invalid : COLORS.neutral;

export interface ReportPdfOptions {
  /** The platform's public name for the title line (SYS_NAME_PUBLIC), when one is set. */
  systemName?: string | null;
  generatedAt?: Date;
}

/** Draws the report; the answer is a complete PDF file. */
export async function renderVerifyReportPdf(
  report: Report,
  opts: ReportPdfOptions = {},
): Promise<Uint8Array> {
  const fonts = await loadFonts();
  const doc = await PDFDocument.create();
  doc.registerFontkit(FONTKIT);
  const regular = await doc.embedFont(fonts.regular, { subset: true });
  const bold = await doc.embedFont(fonts.bold, { subset: true });
  const generatedAt = opts.generatedAt ?? new Date();
  doc.setTitle(`验签报告 Verification report – ${report.fileName}`, { showInWindowTitleBar: true });
  doc.setSubject(`SHA-256 ${report.sha256}`);
  doc.setProducer('OpenSeal');
  doc.setCreator('OpenSeal verification service');
  doc.setCreationDate(generatedAt);
  doc.setModificationDate(generatedAt);
  doc.setLanguage('zh-CN');

  const w = new Writer(doc, regular, bold);
  if (opts.systemName) w.text(opts.systemName, { size: 10, color: COLORS.brand });
  w.text('电子签名验证报告', { size: 20, font: bold });
  w.text('Electronic Signature Verification Report', { size: 12, color: COLORS.muted });
  w.rule(COLORS.brand);

  w.heading('文件 / Document');
  w.row('文件名 / File name', report.fileName);
  // A hash fits one line at a slightly smaller size, so it can be compared at a glance.
  w.row('SHA-256', report.sha256, undefined, 8.5);
  w.row('大小 / Size', `${formatSize(report.size)}（${report.size} bytes）`);
  w.row('版本数 / Revisions', String(report.revisions));
  w.row('验签时间 / Verified at', formatTime(report.verifiedAt));
  w.row('报告编号 / Report ID', report.reportId);
  if (report.encrypted) w.row('加密 / Encrypted', '是，已用空密码读取 / Yes, read with the empty password');
  if (report.repaired)
    w.row(
      '结构修复 / Repaired',
      '文件结构有误，已按扫描结果读取 / The structure was damaged and read by scanning',
    );
  for (const warning of report.warnings) w.row('提示 / Warning', warning);

  w.heading('总体结论 / Overall verdict');
  const valid = report.signatures.filter((s) => s.verdict === 'valid').length;
  w.verdictBox(verdictLabel(report.verdict, report.signatures), verdictColor(report.verdict));
  w.text(
    report.signatures.length === 0
      ? '文件中没有发现电子签名。/ The document carries no signature.'
      : `共 ${report.signatures.length} 个签名，其中 ${valid} 个有效。/ ${report.signatures.length} signature(s), ${valid} valid.`,
    { size: 10 },
  );

  report.signatures.forEach((sig, i) => {
    w.heading(`签名 ${i + 1} / Signature ${i + 1}：${sig.signer ?? sig.field}`, verdictColor(sig.verdict));
    for (const [label, value] of signatureRows(sig, report.revisions))
      w.row(label, value, label.startsWith('结论') ? verdictColor(sig.verdict) : undefined);
  });

  w.heading('证据 / Evidence');
  w.row('证据日志叶子序号 / Evidence-log leaf', String(report.evidenceIndex));
  w.text(
    `本次验签已记入平台的证据日志（RFC 9162 默克尔树），叶子序号 ${report.evidenceIndex}。日志公开的叶子只含加盐承诺，不含任何标识。核验方法：下载证明包 GET /v1/signFile/verify/report/${report.reportId}/evidence/${report.evidenceIndex}/bundle，保存为 proof.json，然后运行 openseal evidence verify proof.json；它打开该叶子中本文件的 SHA-256，并检查该叶子包含在平台签名的树头中。`,
    { size: 9.5 },
  );
  w.text(
    `This verification is leaf ${report.evidenceIndex} of the platform's evidence log (an RFC 9162 Merkle tree), whose public leaves hold salted commitments, no identifiers. To check it, download the proof bundle from GET /v1/signFile/verify/report/${report.reportId}/evidence/${report.evidenceIndex}/bundle, save it as proof.json and run: openseal evidence verify proof.json. It opens the leaf's record of this file's SHA-256 and checks that the leaf is included in a tree head the platform signed.`,
    { size: 9.5, color: COLORS.muted },
  );

  const total = w.pages.length;
  w.pages.forEach((page, i) => {
    const footer = `第 ${i + 1} / ${total} 页 · Page ${i + 1} of ${total} · 生成于 / Generated ${formatTime(generatedAt.toISOString())}`;
    page.drawText(footer, { x: MARGIN, y: MARGIN - 20, size: 8, font: regular, color: COLORS.muted });
  });
  return doc.save();
}
