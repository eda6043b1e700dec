import { LIST_PAGE_OVERLAP, nextListOffset } from './provider-charge-listing';

describe('nextListOffset (offset-paged charge lists)', () => {
  it('overlaps full pages so a charge deleted meanwhile does not make the next one skipped', () => {
    expect(nextListOffset(0, 100)).toBe(100 - LIST_PAGE_OVERLAP);
    expect(nextListOffset(95, 100)).toBe(190);
    // One charge of page 1 deleted before page 2 is read: the old 101st is now the 100th, still asked for.
    const page2Start = nextListOffset(0, 100);
    expect(page2Start).toBeLessThanOrEqual(99);
  });

  it('moves small pages by their whole size (always forward)', () => {
    expect(nextListOffset(0, 2)).toBe(2);
    expect(nextListOffset(10, 1)).toBe(11);
    expect(nextListOffset(0, 4 * LIST_PAGE_OVERLAP)).toBe(4 * LIST_PAGE_OVERLAP - LIST_PAGE_OVERLAP);
  });
});
