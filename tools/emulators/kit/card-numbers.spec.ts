import { luhnValid } from './card-numbers';

describe('card numbers', () => {
  it('accepts the providers’ test numbers and refuses a changed digit', () => {
    for (const number of ['4111111111111111', '5555555555554444', '4000000000000002', '4000000000009995', '378282246310005', '5162306219378829']) {
      expect(luhnValid(number)).toBe(true);
    }
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('5555555555554443')).toBe(false);
  });
});
