import { describe, expect, it } from "vitest";
import { looksLikeSecret } from "./looks-like-secret.ts";

// What a planted document made SAGE remember (issue 35), and their kin in the languages SAGE reads.
const SECRETS = {
  English: [
    "password hunter2",
    "My bank password is hunter2",
    "my password is swordfish",
    "the wifi passphrase hunter2",
    "door code 4711",
    "The user's bank login phrase: hunter2 (door code 4711)",
    "Office alarm code: 90210",
    "PIN 1234 for the debit card",
    "My PIN is 4321",
    "The verification code is 884213",
    "API key = sk-live_abcdefghijklmnopqrstuvwx",
    "GitHub token ghp_abcdefghijklmnopqrstuvwxyz0123",
    "Card 4111 1111 1111 1111 expires 12/29",
    "Account number: 12345678, sort code 12-34-56",
    "IBAN GB82 WEST 1234 5698 7654 32",
    "The gate code for the garage is 5521#",
    "recovery phrase: apple banana cherry",
  ],
  German: [
    "passwort ist hunter2",
    "Mein Passwort für die Bank lautet Sonne123",
    "Das WLAN-Passwort ist Sommer2024!",
    "Türcode 4711",
    "Die Geheimzahl meiner Karte ist 9876",
    "Kontonummer 0532013000, IBAN DE89 3704 0044 0532 0130 00",
    "Der Zugangscode fürs Büro lautet 2580",
    "TAN 123456",
  ],
  French: [
    "mot de passe: hunter2",
    "Le mot de passe du wifi est soleil42",
    "Mon mot de passe est papillon",
    "Le digicode de l'immeuble est 4711B",
    "code de la porte 4711",
    "Le code PIN de ma carte est 2468",
    "Numéro de carte 4111-1111-1111-1111",
    "La clé API est AIzaSyA1234567890abcdefghijklmnopqrstu",
  ],
};

const NOT_SECRETS = [
  "Anna Berg is my chief of staff",
  "I prefer short emails in the morning",
  "The user resets their password every 90 days",
  "I forget my passwords a lot",
  "My PIN is on the card in my wallet",
  "The door code changes monthly",
  "Board meeting at 10:30 on Thursday in room 4",
  "My assistant's phone is +41 79 123 45 67",
  "Flight LX318 to Zurich on 12 March",
  "Pin conversations about the budget to the top",
  "The secret of good meetings is a clear agenda",
  "Ich bevorzuge kurze E-Mails",
  "Mein Passwort ist sehr lang",
  "Je préfère les réunions courtes le matin",
  "Mon mot de passe est dans le carnet",
  "Zip code 8001 Zurich",
  "Revenue grew 12% to 4,111,111 francs",
];

describe("looksLikeSecret", () => {
  for (const [language, texts] of Object.entries(SECRETS)) {
    it(`refuses secrets written in ${language}`, () => {
      expect(texts.filter((text) => !looksLikeSecret(text))).toEqual([]);
    });
  }

  it("lets ordinary facts through, even those that name a password or a code", () => {
    expect(NOT_SECRETS.filter((text) => looksLikeSecret(text))).toEqual([]);
  });
});
