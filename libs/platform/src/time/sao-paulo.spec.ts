import { saoPauloDate } from './sao-paulo';

describe('saoPauloDate', () => {
  it('is the São Paulo calendar day (UTC−3), not the UTC one', () => {
    expect(saoPauloDate(new Date('2026-03-02T02:59:59Z'))).toBe('2026-03-01');
    expect(saoPauloDate(new Date('2026-03-02T03:00:00Z'))).toBe('2026-03-02');
  });
});
