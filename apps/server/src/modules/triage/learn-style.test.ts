import { describe, expect, it } from "vitest";
import { greetingFor, learnStyle, ownWords } from "./learn-style.ts";

const sent = (to: string, body: string) => ({ to, text: `From: Jan Novak <jan@sage.example>\nTo: ${to}\nSubject: Re: x\n\n${body}` });

describe("learnStyle", () => {
  it("learns the greeting with the name left open, the sign-off and the usual length from the user's sent mail", () => {
    const style = learnStyle([
      sent(
        "Anna Berg <anna@acme.example>",
        "Hi Anna,\n\nThursday works. I will bring the numbers.\n\nCheers,\nJan\n\nOn Mon, Anna Berg wrote:\n> Can we meet?",
      ),
      sent("Ravi Patel <ravi@psc.example>", "Hi Ravi,\n\nAgreed on all three points; send me the contract when it is ready.\n\nCheers,\nJan"),
      sent("Mia <mia@home.example>", "Hi Mia,\n\nYes.\n\nCheers,\nJan"),
    ]);
    expect(style).toMatchObject({ greeting: "Hi {name},", signOff: "Cheers,\nJan", learnedFrom: 3 });
    expect(style.words).toBe(7);
    expect(greetingFor(style, "Anna Berg <anna@acme.example>")).toBe("Hi Anna,");
  });

  it("claims no habit a single mail does not make, and keeps the user's own words apart from what they quote", () => {
    const style = learnStyle([sent("a@x.example", "Dear all,\n\nSee below.\n\nRegards"), sent("b@x.example", "Fine by me."), sent("c@x.example", "Noted.")]);
    expect(style.greeting).toBeNull();
    expect(style.signOff).toBeNull();
    expect(ownWords("Sounds good.\n\n-----Original Message-----\nFrom: x")).toBe("Sounds good.");
  });
});
