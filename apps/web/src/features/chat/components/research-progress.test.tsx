import { RESEARCH_TEXTS } from "@sage/contracts/chat-turn";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatInput } from "./chat-input";
import { ResearchProgress, researchStepsOf } from "./research-progress";

afterEach(cleanup);

describe("ResearchProgress", () => {
  it("shows the planned questions and each step as it happens, the last one in progress", () => {
    render(
      <ul>
        <ResearchProgress
          live
          steps={[
            { step: "planned", questions: ["electric truck sales 2026", "depot charging"] },
            { step: "searching", query: "electric truck sales 2026", where: "documents" },
            { step: "searching", query: "electric truck sales 2026", where: "web" },
            { step: "reading", url: "https://www.example.com/sales", title: "Truck sales" },
          ]}
        />
      </ul>,
    );
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      expect.stringContaining("electric truck sales 2026"),
      "electric truck sales 2026",
      "depot charging",
      "Searching your documents: electric truck sales 2026",
      "Searching the web: electric truck sales 2026",
      "Reading Truck sales (example.com)",
    ]);
    // Finished steps are marked done; the page being read is not yet.
    expect(screen.getAllByLabelText("done")).toHaveLength(2);
  });

  it("a saved run shows its questions, the pages it read and the sources it wrote from", () => {
    const steps = researchStepsOf({
      name: "research",
      result: { questions: ["depot charging"], read: [{ url: "https://example.com/depots", title: "Depots" }], sources: [{ n: 1 }, { n: 2 }] },
    });
    render(<ul>{steps && <ResearchProgress steps={steps} />}</ul>);
    expect(screen.getByRole("region", { name: RESEARCH_TEXTS.title }).textContent).toContain("depot charging");
    expect(screen.getAllByTestId("research-step").map((item) => item.textContent)).toEqual([
      "Reading Depots (example.com)",
      "Writing the report from 2 sources",
    ]);
    expect(researchStepsOf({ name: "performWebSearch", result: { questions: [] } })).toBeNull();
  });
});

describe("the composer's Research action", () => {
  it("sends the next message as a research topic once, then goes back to Send", () => {
    const onSend = vi.fn();
    const { rerender } = render(<ChatInput value="Electric trucks" onChange={() => {}} onSend={onSend} onStop={() => {}} sending={false} />);
    const toggle = screen.getByRole("button", { name: RESEARCH_TEXTS.action });
    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("textbox", { name: "Message" }).getAttribute("placeholder")).toBe("What should SAGE research?");
    fireEvent.click(screen.getByRole("button", { name: "Start research" }));
    expect(onSend).toHaveBeenLastCalledWith("Electric trucks", { research: true });
    rerender(<ChatInput value="And a plain question" onChange={() => {}} onSend={onSend} onStop={() => {}} sending={false} />);
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    expect(onSend).toHaveBeenLastCalledWith("And a plain question", {});
  });
});
