import { Timers } from './timers';

describe('Timers', () => {
  it('runs each piece of work once after its delay, and none of what is pending once cleared', async () => {
    const timers = new Timers();
    const ran: string[] = [];
    timers.after(5, () => ran.push('soon'));
    timers.after(60_000, () => ran.push('later'));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(ran).toEqual(['soon']);
    timers.clear();
    timers.after(5, () => ran.push('again'));
    timers.clear();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(ran).toEqual(['soon']);
  });
});
