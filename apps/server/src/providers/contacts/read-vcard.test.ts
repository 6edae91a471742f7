import { describe, expect, it } from "vitest";
import { readVcard } from "./read-vcard.ts";

const card = (version: string, lines: string[]) => ["BEGIN:VCARD", `VERSION:${version}`, ...lines, "END:VCARD", ""].join("\r\n");

describe("readVcard", () => {
  it("reads a vCard 3.0 as Google and iCloud serve it: parameters, groups, folded lines and a photo left aside", () => {
    const read = readVcard(
      card("3.0", [
        "PRODID:-//Apple Inc.//iOS 17//EN",
        "UID:anna-1",
        "N:Berg;Anna;;;",
        "FN:Anna Berg",
        "ORG:Acme Corp;Finance",
        "TITLE:Chief Financial Officer",
        "item1.EMAIL;type=INTERNET;type=WORK;type=pref:Anna@Acme.example",
        "EMAIL;TYPE=HOME:anna.berg@home.example",
        "CATEGORIES:Board,Investors",
        "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD",
        " /2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL",
        "X-ABLabel:_$!<Other>!$_",
      ]),
    );
    expect(read).toEqual({
      uid: "anna-1",
      name: "Anna Berg",
      emails: ["anna@acme.example", "anna.berg@home.example"],
      organisation: "Acme Corp",
      role: "Chief Financial Officer",
      categories: ["Board", "Investors"],
    });
  });

  it("reads a vCard 4.0 with escaped commas, and names a card without FN after its address", () => {
    expect(readVcard(card("4.0", ["UID:urn:uuid:1", "FN:Ravi Patel", "ORG:Patel\\, Shah & Co", "EMAIL:ravi@psc.example"]))).toMatchObject({
      name: "Ravi Patel",
      organisation: "Patel, Shah & Co",
    });
    expect(readVcard(card("3.0", ["EMAIL:ops@vendor.example"]))).toMatchObject({ name: "ops@vendor.example", uid: "ops@vendor.example" });
  });

  it("answers null for a card that names no one, and for one far too large", () => {
    expect(readVcard(card("3.0", ["TEL:+41 44 000 00 00"]))).toBeNull();
    expect(readVcard(card("3.0", ["FN:Big", `NOTE:${"x".repeat(300_000)}`]))).toBeNull();
  });
});
