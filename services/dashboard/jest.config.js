// The dashboard's pure helpers (money, dates, parsing) are unit-tested in node; the pages are
// exercised in Chromium by tools/e2e/src/dashboard.e2e.spec.ts.
module.exports = require('../../jest.preset.js')(__dirname);
