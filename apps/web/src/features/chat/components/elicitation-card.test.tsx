import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ELICITATION_TEXTS, type ElicitationRequest } from "@sage/contracts/elicitation";
import { ElicitationCard } from "./elicitation-card";

const form: ElicitationRequest = {
  elicitationId: "e1",
  serverId: "config:travel",
  server: "travel",
  mode: "form",
  message: "Which flight should I hold?",
  schema: {
    type: "object",
    properties: {
      passenger: { type: "string", title: "Passenger" },
      seats: { type: "integer", title: "Seats", minimum: 1, maximum: 4, default: 1 },
      cabin: {
        type: "string",
        title: "Cabin",
        oneOf: [
          { const: "y", title: "Economy" },
          { const: "j", title: "Business" },
        ],
      },
      refundable: { type: "boolean", title: "Refundable only" },
    },
    required: ["passenger"],
  },
};

const show = (request: ElicitationRequest, onAnswer = vi.fn(async () => {})) => {
  render(
    <ul>
      <ElicitationCard request={request} onAnswer={onAnswer} />
    </ul>,
  );
  return onAnswer;
};

describe("ElicitationCard", () => {
  it("shows the server's fields with their defaults, says what is missing, and sends the answers as their types", async () => {
    const onAnswer = show(form);
    expect(screen.getByRole("heading", { name: "travel asks" })).toBeTruthy();
    expect(screen.getByText("Which flight should I hold?")).toBeTruthy();
    expect((screen.getByLabelText("Seats") as HTMLInputElement).value).toBe("1");
    await userEvent.click(screen.getByRole("button", { name: "Accept" }));
    expect(screen.getByRole("alert").textContent).toBe("Passenger is required");
    expect(onAnswer).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText(/Passenger/), "Ada Lovelace");
    await userEvent.selectOptions(screen.getByLabelText("Cabin"), "Business");
    await userEvent.click(screen.getByRole("checkbox", { name: "Refundable only" }));
    await userEvent.click(screen.getByRole("button", { name: "Accept" }));
    expect(onAnswer).toHaveBeenCalledWith({ action: "accept", content: { passenger: "Ada Lovelace", seats: 1, cabin: "j", refundable: true } });
  });

  it("declines and cancels without sending anything the user typed", async () => {
    const onAnswer = show(form);
    await userEvent.click(screen.getByRole("button", { name: "Decline" }));
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onAnswer.mock.calls).toEqual([[{ action: "decline" }], [{ action: "cancel" }]]);
  });

  it("in URL mode shows the whole address, opens it only when asked, then waits for the server", async () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const onAnswer = show({
      elicitationId: "e2",
      serverId: "u1",
      server: "payments",
      mode: "url",
      message: "Confirm the payment",
      url: "https://pay.example.com/confirm?id=7",
    });
    expect(screen.getByTestId("elicitation-url").textContent).toBe("pay.example.com (https://pay.example.com/confirm?id=7)");
    expect(open).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "Open pay.example.com" }));
    expect(open).toHaveBeenCalledWith("https://pay.example.com/confirm?id=7", "_blank", "noopener,noreferrer");
    expect(onAnswer).toHaveBeenCalledWith({ action: "accept" });
    expect(screen.getByRole("status").textContent).toBe(ELICITATION_TEXTS.urlWaiting("pay.example.com"));
    open.mockRestore();
  });
});
