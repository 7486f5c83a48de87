import { describe, expect, it } from 'vitest';
import { amountToCents, materialProblem, MATERIAL_MAX_BYTES } from './material';

describe('manual-path materials', () => {
  it('takes jpg, png and pdf up to 10 MB', () => {
    expect(materialProblem({ name: 'licence.PNG', size: 10 })).toBeNull();
    expect(materialProblem({ name: 'letter.pdf', size: MATERIAL_MAX_BYTES })).toBeNull();
    expect(materialProblem({ name: 'a.jpeg', size: 1 })).toBeNull();
    expect(materialProblem({ name: 'a.gif', size: 1 })).toBe('type');
    expect(materialProblem({ name: 'a.pdf', size: MATERIAL_MAX_BYTES + 1 })).toBe('size');
  });
});

describe('micro-payment amount', () => {
  it('reads yuan as cents between 1 and 99', () => {
    expect(amountToCents('0.37')).toBe(37);
    expect(amountToCents('.5')).toBe(50);
    expect(amountToCents('0.01')).toBe(1);
    expect(amountToCents('0.00')).toBeNull();
    expect(amountToCents('1.00')).toBeNull();
    expect(amountToCents('abc')).toBeNull();
  });
});
