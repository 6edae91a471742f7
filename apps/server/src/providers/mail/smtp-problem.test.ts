import { smtpProblemMessage } from "@sage/contracts/accounts";
import { describe, expect, it } from "vitest";
import { smtpProblem } from "./smtp-problem.ts";

// What nodemailer and the probe report: the command the reply answered, its code, or the socket's error code.
describe("an SMTP failure is read from the server's reply, naming the step", () => {
  it.each([
    [{ command: "MAIL FROM", responseCode: 501 }, "sender"],
    [{ command: "MAIL FROM", responseCode: 553 }, "sender"],
    [{ command: "RCPT TO", responseCode: 550, code: "EENVELOPE" }, "recipient"],
    [{ command: "DATA", responseCode: 552, code: "EMESSAGE" }, "message"],
    [{ command: "AUTH PLAIN", responseCode: 535, code: "EAUTH" }, "login"],
    [{ command: "AUTH XOAUTH2", responseCode: 535 }, "login"],
    [{ command: "MAIL FROM", responseCode: 451 }, "try-later"],
    [{ command: "RCPT TO", responseCode: 421 }, "try-later"],
    [{ command: "CONN", code: "ETLS", message: "unable to verify the first certificate" }, "tls"],
    [{ command: "CONN", code: "EDNS" }, "dns"],
    [{ command: "CONN", code: "ETIMEDOUT" }, "timeout"],
    [{ command: "CONN", code: "ECONNECTION", message: "connect ECONNREFUSED 127.0.0.1:25" }, "network"],
  ] as const)("%o is %s", (failure, problem) => {
    expect(smtpProblem(failure)).toBe(problem);
  });

  it("says it in words, never in the server's", () => {
    const where = { host: "smtp.example.com", port: 587, address: "exec" };
    expect(smtpProblemMessage("sender", where)).toBe("the server refused the sender address exec: use your full e-mail address.");
    expect(smtpProblemMessage("sender", { ...where, address: "ceo@example.com" })).toBe(
      "the server refused the sender address ceo@example.com: it does not let this login send as that address.",
    );
    expect(smtpProblemMessage("recipient", { ...where, rejected: ["nobody@example.org"] })).toBe(
      "the server refused the recipient nobody@example.org: check the address.",
    );
    expect(smtpProblemMessage("try-later", where)).toBe("the server smtp.example.com is busy or limiting sending, and asked to try again later.");
    expect(smtpProblemMessage("network", where)).toBe("the mail server smtp.example.com:587 could not be reached. Check the server name and port.");
  });
});
