export { FirstUseTour, type TourStepSpec } from './first-use-tour';
