/**
 * The seal drawing template of spec section 3, field names as the spec writes them (`angel` included).
 * Lengths are pixels at 400 dpi unless the name says mm; angles are degrees. What each text field means
 * depends on where the seal type draws that text (README, "Template fields").
 */

/** 0 and 1 round, 2 ellipse, 3 personal square, 4 round with two titles, 5 square finance seal. */
export type SealType = 0 | 1 | 2 | 3 | 4 | 5;

export interface BaseInfo {
  sealType: SealType;
  /** Picture width in px: realWidth mm at 400 dpi, rounded. */
  width: number;
  /** Picture height in px: realHeight mm at 400 dpi, rounded. */
  height: number;
  /** Real width in mm. */
  realWidth: number;
  /** Real height in mm. */
  realHeight: number;
  /** Ink colour of text, centre image and border, `#rrggbb`. */
  fontColor: string;
}

/** One text of the seal (contentInfo, titleInfo, title0Info, serialInfo share this shape). */
export interface TextInfo {
  /** A shipped font name (`SEAL_FONTS`). */
  font: string;
  /** Thicker strokes (an outline of the glyph's own colour around each glyph). */
  bolder: boolean;
  /** The characters to draw; empty means the text is not drawn. */
  content: string;
  /** Em height of a glyph in px (0 where the layout sizes glyphs itself: the square grid). */
  fontSize: number;
  /** On an arc: gap from the seal's outer edge to the outer side of the glyphs. On a line: the line's
   * vertical centre from the top of the picture. In a grid: inset of the grid inside the border. */
  y: number;
  /** On an arc: degrees between the first and the last character's centre; otherwise 0. */
  arcWidth: number;
  /** On an arc: em width of each glyph in px. On a line: the width the line fills. In a grid: 0. */
  contentWidth: number;
}

/** The micro-text security line: the content repeated in tiny glyphs on a line just inside the border. */
export interface SecurityLineInfo {
  /** Repeated along the line; empty (or fontSize 0) means no security line. */
  content: string;
  /** Em height of the micro-text in px. */
  fontSize: number;
  /** Where the line starts, in degrees clockwise from 12 o'clock (the spec's spelling). */
  angel: number;
}

/** The centre image: the star of a company seal, or any single-colour figure. */
export interface ImageInfo {
  /** SVG path data in a box from −1 to 1 on both axes (centre 0,0, y down); empty means no image. */
  path: string;
  /** Drawn width and height of that box in px (a star's tip-to-tip circle). */
  size: number;
  /** The image centre's distance from the top of the picture in px. */
  y: number;
}

export interface BorderInfo {
  /** Stroke width of the border in px; 0 means no border. */
  width: number;
  /** A second, thin line inside the border (double border). */
  useDKLine: boolean;
  /** Colour of that inner line, `#rrggbb`. */
  lineColor: string;
  /** Stroke width of that inner line in px. */
  lineWidth: number;
}

export interface SealTemplate {
  baseInfo: BaseInfo;
  contentInfo: TextInfo;
  titleInfo: TextInfo;
  title0Info: TextInfo;
  serialInfo: TextInfo;
  securityLineInfo: SecurityLineInfo;
  imageInfo: ImageInfo;
  borderInfo: BorderInfo;
}

/** What a caller knows about a seal; createTemplate turns it into a template by the documented rules. */
export interface SealSpec {
  sealType: SealType;
  /** The organisation or person name: the upper arc of round and oval seals, the grid of square ones. */
  name: string;
  /** Round and oval seals: the horizontal title ("合同专用章", "发票专用章"). Square seals: appended to
   * the name in the grid ("之印"; a finance seal defaults to "财务专用章"). */
  title?: string;
  /** Type 4 only: the second title, drawn above the title. */
  title0?: string;
  /** Round seals: the number on the lower arc. Oval seal: the taxpayer number across the centre. */
  serial?: string;
  widthMm?: number;
  heightMm?: number;
  /** Ink colour `#rrggbb`. */
  color?: string;
  doubleBorder?: boolean;
  securityLines?: boolean;
  /** A shipped font name (`SEAL_FONTS`). */
  font?: string;
}

/** Glyph outlines of one font for a set of characters, JSON-serialisable (the server answers this). */
export interface GlyphSet {
  unitsPerEm: number;
  /** Top of the ideographic em box in font units (y up). */
  ascender: number;
  /** Bottom of the ideographic em box in font units (y up, so usually negative). */
  descender: number;
  /** Per character: SVG path data in font units (y up, origin on the baseline) and the advance width. */
  glyphs: Record<string, { d: string; advance: number }>;
}
