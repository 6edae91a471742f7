/** One party of a mail header or an attendee list: "Anna Berg <anna@acme.example>" as its name and address. */
export interface Party {
  name: string | null;
  address: string;
}

const ADDRESS = /[^\s<>,;"'()]+@[^\s<>,;"'()]+\.[^\s<>,;"'()]+/;

/** The parties of a header such as `Anna Berg <anna@acme.example>, bob@b.example` (addresses in lower case). */
export function partiesOf(header: string): Party[] {
  const parties: Party[] = [];
  for (const piece of header.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
    const address = ADDRESS.exec(piece)?.[0]
      ?.replace(/[.)]+$/, "")
      .toLowerCase();
    if (!address) continue;
    const name = piece
      .replace(/<[^>]*>/, "")
      .replace(ADDRESS, "")
      .replace(/["']/g, "")
      .trim();
    parties.push({ name: name && !name.includes("@") ? name : null, address });
  }
  return parties;
}

/** Sent folders by their names in the languages mail servers use (as the commitments ledger reads them). */
export const SENT_FOLDER = /sent|gesendet|envoy|enviad|inviat|verzonden|skickat|wysłane/i;

/** "anna.berg@acme.example" -> "anna.berg": what a person is called before anything better is known. */
export const nameFromAddress = (address: string) => address.split("@")[0] ?? address;
