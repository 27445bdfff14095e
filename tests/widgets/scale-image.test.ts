import { describe, expect, it } from 'vitest';
import { fitWithin, MAX_IMAGE_SIDE } from '../../widgets/id-capture/scale-image';

describe('fitWithin (identity photos: longest side 1920 px)', () => {
  it('scales a landscape or portrait phone photo to 1920 on its longest side, keeping the ratio', () => {
    expect(MAX_IMAGE_SIDE).toBe(1920);
    expect(fitWithin(4032, 3024, 1920)).toEqual({ width: 1920, height: 1440 });
    expect(fitWithin(3024, 4032, 1920)).toEqual({ width: 1440, height: 1920 });
  });

  it('leaves a photo that already fits unchanged', () => {
    expect(fitWithin(1920, 1080, 1920)).toEqual({ width: 1920, height: 1080 });
    expect(fitWithin(800, 600, 1920)).toEqual({ width: 800, height: 600 });
  });
});
