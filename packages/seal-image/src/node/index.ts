export { glyphsFor, loadFont, type FontHandle } from './font';
export { renderPng, svgToPng } from './render-png';
export { fitPictureToSeal } from './fit-picture';
