// The company behind the shop as the law asks every page, the terms and the receipt to name it (Companies
// (Trading Disclosures) Regulations 2015, E-Commerce Regulations 2002 reg. 6): its registered name, number
// and registered office from the site info, as the server words it in the terms and the confirmation.

interface CompanyFacts {
  companyName?: string | null;
  companyNumber?: string | null;
  registeredOffice?: string | null;
}

/** An address kept on several lines, on one: "1 Mill Yard, Leeds LS1 1AA". */
export function oneLine(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .join(', ');
}

/** "Fizz Drinks Ltd, company number 01234567, registered office 2 Park Row, Leeds": null until named. */
export function companyLine(info: CompanyFacts | null | undefined): string | null {
  const name = info?.companyName?.trim();
  if (!name) return null;
  const parts = [name];
  if (info?.companyNumber) parts.push(`company number ${info.companyNumber}`);
  if (info?.registeredOffice?.trim()) parts.push(`registered office ${oneLine(info.registeredOffice)}`);
  return parts.join(', ');
}
