import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('csvCell', () => {
  it('leaves plain text and numbers as they are', () => {
    expect(csvCell('Mango Fizz')).toBe('Mango Fizz');
    expect(csvCell(24.1)).toBe('24.1');
    expect(csvCell(-5)).toBe('-5'); // a number is never a formula
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes a cell with a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvCell('Leeds, LS1 1AA')).toBe('"Leeds, LS1 1AA"');
    expect(csvCell('the "best" cola')).toBe('"the ""best"" cola"');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  it("prefixes text starting with = + - @ (or a tab or CR) with ' so a spreadsheet never runs it", () => {
    expect(csvCell('=HYPERLINK("http://evil.example","click")')).toBe(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csvCell('+44 7700 900123')).toBe("'+44 7700 900123");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('a=b')).toBe('a=b');
  });
});

describe('toCsv', () => {
  it('writes a byte-order mark, the header and CRLF-separated rows', () => {
    expect(toCsv(['Number', 'Customer', 'Total'], [['PD-10001', 'Haddad, Layla', 24.1], ['PD-10002', '=1+1', 5]])).toBe(
      '\uFEFFNumber,Customer,Total\r\nPD-10001,"Haddad, Layla",24.1\r\nPD-10002,\'=1+1,5\r\n',
    );
  });
});
