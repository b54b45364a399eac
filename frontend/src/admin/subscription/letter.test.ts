import { describe, expect, it } from 'vitest';
import { ADD_MAIL_LIST, emptyLetter, INPUTS_EMPTY, isWebAddress, letterError, sendQuestion, shown } from './letter';

describe('mailer letter rules', () => {
  const good = { lists: ['Newsletter'], subject: 'Summer', sections: [{ title: 'Mango', description: 'New drink', link: '', image: '' }] };

  it('names a missing list first, then empty inputs, trimming before counting', () => {
    expect(letterError(emptyLetter())).toBe(ADD_MAIL_LIST);
    expect(letterError({ ...good, lists: [] })).toBe(ADD_MAIL_LIST);
    expect(letterError(good)).toBeNull();
    expect(letterError({ ...good, subject: '  ab  ' })).toBe(INPUTS_EMPTY);
    expect(letterError({ ...good, sections: [{ ...good.sections[0]!, title: 'ab' }] })).toBe(INPUTS_EMPTY);
    expect(letterError({ ...good, sections: [{ ...good.sections[0]!, description: ' x ' }] })).toBe(INPUTS_EMPTY);
    expect(letterError({ ...good, sections: [] })).toBe(INPUTS_EMPTY);
  });

  it('shows a field only when it is longer than 2 characters, and takes only web addresses', () => {
    expect([shown('ab'), shown(' abc ')]).toEqual([false, true]);
    expect(isWebAddress('https://shop.example.com/x')).toBe(true);
    expect(isWebAddress('javascript:alert(1)')).toBe(false);
    expect(isWebAddress('https://a b')).toBe(false);
  });

  it("says what sending will do: the subject and who gets it, as the admin's question before sending", () => {
    expect(sendQuestion(' Summer news ', ['Newsletter'], 5)).toBe("Send 'Summer news' to 5 Newsletter subscribers?");
    expect(sendQuestion('Hi', ['Newsletter'], 1)).toBe("Send 'Hi' to 1 Newsletter subscriber?");
    expect(sendQuestion('Hi', ['A', 'B', 'C'], 7)).toBe("Send 'Hi' to 7 subscribers of A, B and C (each once)?");
  });
});
