// @vitest-environment happy-dom
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
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
          approval={{ approvalId: "a1", name: "scheduleTask", args: { rrule: "DTSTART;TZID=Europe/Zurich:20261127T070000" }, summary }}
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
    expect(onAnswer).toHaveBeenCalledWith(true);
  });
});
