import { isBusinessDay } from './business-days';
import { addDays } from './calendar-date';
import { cycleAt, cycleContaining, FREQUENCIES, isFrequency, nextCycleAfter, type Cycle, type CycleSchedule, type Frequency } from './cycle-schedule';

const schedule = (start_date: string, frequency: Frequency, end_date: string | null = null): CycleSchedule => ({ start_date, frequency, end_date });

/** The first `count` cycles (fewer when the schedule ends), by sequence. */
function firstCycles(s: CycleSchedule, count: number): Cycle[] {
  const cycles: Cycle[] = [];
  for (let n = 1; n <= count; n += 1) {
    const cycle = cycleAt(s, n);
    if (!cycle) break;
    cycles.push(cycle);
  }
  return cycles;
}

const anchors = (s: CycleSchedule, count: number) => firstCycles(s, count).map((c) => c.anchor_date);
const dues = (s: CycleSchedule, count: number) => firstCycles(s, count).map((c) => c.due_date);

describe('cycle schedule', () => {
  it('knows the five frequencies', () => {
    expect(FREQUENCIES).toEqual(['weekly', 'monthly', 'quarterly', 'semiannually', 'annually']);
    expect(isFrequency('monthly')).toBe(true);
    expect(isFrequency('daily')).toBe(false);
  });

  it('weekly: every 7 days from start_date, a holiday moving one due date but not the next anchor', () => {
    const weekly = schedule('2026-03-27', 'weekly'); // a Friday; 2026-04-03 is Good Friday
    expect(anchors(weekly, 4)).toEqual(['2026-03-27', '2026-04-03', '2026-04-10', '2026-04-17']);
    expect(dues(weekly, 4)).toEqual(['2026-03-27', '2026-04-06', '2026-04-10', '2026-04-17']);
  });

  it('monthly from Jan 31: month ends clamp to the month, anchored to the 31st, never drifting', () => {
    const monthly = schedule('2026-01-31', 'monthly');
    expect(anchors(monthly, 13)).toEqual([
      '2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30',
      '2026-07-31', '2026-08-31', '2026-09-30', '2026-10-31', '2026-11-30', '2026-12-31', '2027-01-31',
    ]);
    // Sat 31 Jan → Mon 2 Feb; Sat 28 Feb → Mon 2 Mar; Sun 31 May → Mon 1 Jun; Sat 31 Oct → Mon 2 Nov is Finados → Tue 3 Nov.
    expect(dues(monthly, 13)).toEqual([
      '2026-02-02', '2026-03-02', '2026-03-31', '2026-04-30', '2026-06-01', '2026-06-30',
      '2026-07-31', '2026-08-31', '2026-09-30', '2026-11-03', '2026-11-30', '2026-12-31', '2027-02-01',
    ]);
  });

  it('monthly in a leap year: Feb 29', () => {
    expect(anchors(schedule('2028-01-31', 'monthly'), 3)).toEqual(['2028-01-31', '2028-02-29', '2028-03-31']);
    expect(anchors(schedule('2028-01-29', 'monthly'), 3)).toEqual(['2028-01-29', '2028-02-29', '2028-03-29']);
    expect(anchors(schedule('2027-01-29', 'monthly'), 3)).toEqual(['2027-01-29', '2027-02-28', '2027-03-29']);
  });

  it('monthly: holidays move due dates to the next business day', () => {
    const monthly = schedule('2026-09-20', 'monthly');
    expect(firstCycles(monthly, 4)).toEqual([
      { sequence: 1, anchor_date: '2026-09-20', due_date: '2026-09-21' }, // Sunday
      { sequence: 2, anchor_date: '2026-10-20', due_date: '2026-10-20' },
      { sequence: 3, anchor_date: '2026-11-20', due_date: '2026-11-23' }, // Consciência Negra, then the weekend
      { sequence: 4, anchor_date: '2026-12-20', due_date: '2026-12-21' }, // Sunday
    ]);
    expect(cycleAt(schedule('2026-03-21', 'monthly'), 2)).toEqual({ sequence: 2, anchor_date: '2026-04-21', due_date: '2026-04-22' }); // Tiradentes
    expect(cycleAt(schedule('2026-11-25', 'monthly'), 2)).toEqual({ sequence: 2, anchor_date: '2026-12-25', due_date: '2026-12-28' }); // Natal
  });

  it('quarterly, semiannually and annually keep the start day, clamped at month ends and leap days', () => {
    expect(anchors(schedule('2026-11-30', 'quarterly'), 4)).toEqual(['2026-11-30', '2027-02-28', '2027-05-30', '2027-08-30']);
    expect(anchors(schedule('2026-08-31', 'semiannually'), 3)).toEqual(['2026-08-31', '2027-02-28', '2027-08-31']);
    expect(anchors(schedule('2028-02-29', 'annually'), 5)).toEqual(['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29']);
    expect(dues(schedule('2026-11-30', 'quarterly'), 2)).toEqual(['2026-11-30', '2027-03-01']); // 28 Feb 2027 is a Sunday
  });

  it('ends with the last cycle anchored on or before end_date', () => {
    const bounded = schedule('2026-01-15', 'monthly', '2026-04-15');
    expect(anchors(bounded, 10)).toEqual(['2026-01-15', '2026-02-15', '2026-03-15', '2026-04-15']);
    expect(cycleAt(bounded, 5)).toBeNull();
    expect(anchors(schedule('2026-01-15', 'monthly', '2026-04-14'), 10)).toHaveLength(3);
    // Anchored on Saturday 2026-08-15 (= end_date): due the next Monday, after end_date.
    expect(cycleAt(schedule('2026-07-15', 'monthly', '2026-08-15'), 2)).toEqual({ sequence: 2, anchor_date: '2026-08-15', due_date: '2026-08-17' });
  });

  it('refuses a sequence below 1', () => {
    expect(() => cycleAt(schedule('2026-01-15', 'monthly'), 0)).toThrow(RangeError);
    expect(() => cycleAt(schedule('2026-01-15', 'monthly'), 1.5)).toThrow(RangeError);
  });

  describe('next cycle after a date', () => {
    it('is the first cycle before start_date, and the following one on a due date', () => {
      const monthly = schedule('2026-01-31', 'monthly');
      expect(nextCycleAfter(monthly, '2026-01-01')?.sequence).toBe(1);
      expect(nextCycleAfter(monthly, '2026-02-01')?.sequence).toBe(1); // due 2 Feb (the 31st was a Saturday)
      expect(nextCycleAfter(monthly, '2026-02-02')?.sequence).toBe(2);
      expect(nextCycleAfter(monthly, '2026-10-31')).toEqual({ sequence: 10, anchor_date: '2026-10-31', due_date: '2026-11-03' });
    });

    it('is null once the schedule has ended', () => {
      const bounded = schedule('2026-01-15', 'monthly', '2026-04-15');
      expect(nextCycleAfter(bounded, '2026-04-14')?.sequence).toBe(4);
      expect(nextCycleAfter(bounded, '2026-04-15')).toBeNull();
    });

    it.each(FREQUENCIES)('%s: agrees with a walk from the first cycle for every day of three years', (frequency) => {
      const starts = ['2026-01-31', '2026-02-28', '2026-03-27', '2026-11-20'];
      for (const start of starts) {
        const s = schedule(start, frequency);
        const all = firstCycles(s, 200);
        for (let date = addDays(start, -3); date <= '2028-12-31'; date = addDays(date, 1)) {
          const expected = all.find((cycle) => cycle.due_date > date) ?? null;
          expect(nextCycleAfter(s, date)).toEqual(expected);
        }
      }
    });

    it('due dates strictly increase and are business days', () => {
      for (const frequency of FREQUENCIES) {
        const cycles = firstCycles(schedule('2026-01-31', frequency), 120);
        for (let i = 1; i < cycles.length; i += 1) expect(cycles[i]!.due_date > cycles[i - 1]!.due_date).toBe(true);
        for (const cycle of cycles) expect(isBusinessDay(cycle.due_date)).toBe(true);
      }
    });
  });
});

describe('cycleContaining (the cycle a charge due date belongs to)', () => {
  it('is the last cycle anchored on or before the date, for every frequency', () => {
    expect(cycleContaining(schedule('2026-01-31', 'monthly'), '2026-03-15')).toEqual({ sequence: 2, anchor_date: '2026-02-28', due_date: '2026-03-02' });
    expect(cycleContaining(schedule('2026-01-31', 'monthly'), '2026-02-27')?.sequence).toBe(1);
    expect(cycleContaining(schedule('2026-01-31', 'monthly'), '2026-02-28')?.sequence).toBe(2);
    expect(cycleContaining(schedule('2026-03-02', 'weekly'), '2026-03-16')?.sequence).toBe(3);
    expect(cycleContaining(schedule('2026-03-02', 'weekly'), '2026-03-15')?.sequence).toBe(2);
    expect(cycleContaining(schedule('2026-01-15', 'quarterly'), '2026-07-14')?.sequence).toBe(2);
    expect(cycleContaining(schedule('2026-01-15', 'semiannually'), '2026-07-15')?.sequence).toBe(2);
    expect(cycleContaining(schedule('2026-01-15', 'annually'), '2028-01-14')?.sequence).toBe(2);
  });

  it('agrees with cycleAt: every cycle contains its own anchor, and the day before the next anchor', () => {
    for (const frequency of FREQUENCIES) {
      const s = schedule('2026-01-31', frequency);
      for (let sequence = 1; sequence <= 14; sequence += 1) {
        const cycle = cycleAt(s, sequence)!;
        const next = cycleAt(s, sequence + 1)!;
        expect(cycleContaining(s, cycle.anchor_date)?.sequence).toBe(sequence);
        expect(cycleContaining(s, addDays(next.anchor_date, -1))?.sequence).toBe(sequence);
      }
    }
  });

  it('is null before start_date and for a cycle after end_date', () => {
    expect(cycleContaining(schedule('2026-03-02', 'weekly'), '2026-03-01')).toBeNull();
    expect(cycleContaining(schedule('2026-03-02', 'weekly', '2026-03-10'), '2026-03-16')).toBeNull();
    expect(cycleContaining(schedule('2026-03-02', 'weekly', '2026-03-10'), '2026-03-10')?.sequence).toBe(2);
  });
});
