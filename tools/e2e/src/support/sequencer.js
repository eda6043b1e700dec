// Orders the shared e2e run: suites that move an emulator's clock forward (which can only move
// forward, and which every later suite's charges at that emulator would then live under) run
// last, after jest's usual order for the rest. Their names are listed here on purpose: a suite
// joins the list when it starts moving clocks.
const Sequencer = require('@jest/test-sequencer').default;

const CLOCK_MOVERS = ['subscription-cycles.e2e.spec.ts'];
const movesClocks = (test) => CLOCK_MOVERS.some((name) => test.path.endsWith(name));

class ClockMoversLast extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const list = Array.isArray(ordered) ? ordered : [];
    return [...list.filter((test) => !movesClocks(test)), ...list.filter(movesClocks)];
  }
}

module.exports = ClockMoversLast;
