import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { StructuredData } from "./tool-output";

describe("StructuredData", () => {
  it("shows fields as name and value, and a list of records as a table", () => {
    render(
      <StructuredData
        data={{
          temperature: 22.5,
          conditions: "Sunny",
          flights: [
            { number: "LX318", lands: "14:05" },
            { number: "LX320", gate: "B4" },
          ],
        }}
      />,
    );
    const fields = screen.getByTestId("structured-fields");
    expect(within(fields).getByText("Temperature").nextSibling?.textContent).toBe("22.5");
    expect(within(fields).getByText("Conditions").nextSibling?.textContent).toBe("Sunny");
    const table = screen.getByRole("table", { name: "Flights" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["Number", "Lands", "Gate"]);
    expect(
      within(table)
        .getAllByRole("row")
        .map((row) => row.textContent),
    ).toEqual(["NumberLandsGate", "LX31814:05", "LX320B4"]);
  });
});
