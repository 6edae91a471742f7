import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { isUpload, type DescribedEntry, type PendingEntry } from "./pending-entry";

/** The folder new knowledge goes into (0: the top of the knowledge base), with the folders above it. */
export interface Destination {
  id: number;
  trail: KnowledgeItem[];
}

export interface AddKnowledgeState {
  step: "pick" | "describe" | "destination";
  items: DescribedEntry[];
  urlDraft: string;
  noteDraft: string;
  /** The item being described. */
  describeIndex: number;
  destination: Destination;
}

export type AddKnowledgeAction =
  | { type: "uploads-added"; entries: PendingEntry[] }
  | { type: "url-typed"; text: string }
  | { type: "note-typed"; text: string }
  | { type: "url-added" }
  | { type: "note-added" }
  | { type: "entry-removed"; index: number }
  | { type: "describe-started" }
  | { type: "description-typed"; text: string }
  | { type: "description-confirmed" }
  /** A suggestion for an entry's description, taken only while the user has written none. */
  | { type: "description-suggested"; entry: PendingEntry; text: string }
  /** "Use this description for all remaining files": the current description for every item after it, then on. */
  | { type: "description-used-for-rest" }
  | { type: "went-back" }
  | { type: "destination-opened"; destination: Destination }
  | { type: "reset"; destination: Destination };

export const initialAddKnowledgeState = (destination: Destination): AddKnowledgeState => ({
  step: "pick",
  items: [],
  urlDraft: "",
  noteDraft: "",
  describeIndex: 0,
  destination,
});

const undescribed = (entry: PendingEntry): DescribedEntry => ({ entry, description: "" });

/**
 * Adding knowledge, step by step: pick (files and folders accumulate; a link or a note replaces everything else),
 * then a description for each item in turn (required, kept when going back), then the destination.
 */
export function addKnowledgeReducer(state: AddKnowledgeState, action: AddKnowledgeAction): AddKnowledgeState {
  switch (action.type) {
    case "uploads-added":
      if (action.entries.length === 0) return state;
      return { ...state, items: [...state.items.filter((item) => isUpload(item.entry)), ...action.entries.map(undescribed)] };
    case "url-typed":
      return { ...state, urlDraft: action.text };
    case "note-typed":
      return { ...state, noteDraft: action.text };
    case "url-added": {
      const url = state.urlDraft.trim();
      return url ? { ...state, items: [undescribed({ kind: "url", url })], urlDraft: "", noteDraft: "" } : state;
    }
    case "note-added": {
      const text = state.noteDraft.trim();
      return text ? { ...state, items: [undescribed({ kind: "note", text })], urlDraft: "", noteDraft: "" } : state;
    }
    case "entry-removed":
      return { ...state, items: state.items.filter((_, index) => index !== action.index) };
    case "describe-started":
      return state.items.length === 0 ? state : { ...state, step: "describe", describeIndex: 0 };
    case "description-typed":
      return { ...state, items: state.items.map((item, index) => (index === state.describeIndex ? { ...item, description: action.text } : item)) };
    case "description-confirmed":
      if (!state.items[state.describeIndex]?.description.trim()) return state;
      if (state.describeIndex < state.items.length - 1) return { ...state, describeIndex: state.describeIndex + 1 };
      return { ...state, step: "destination" };
    case "description-suggested":
      if (!action.text.trim()) return state;
      return {
        ...state,
        items: state.items.map((item) => (item.entry === action.entry && item.description === "" ? { ...item, description: action.text } : item)),
      };
    case "description-used-for-rest": {
      const description = state.items[state.describeIndex]?.description ?? "";
      if (!description.trim()) return state;
      return {
        ...state,
        items: state.items.map((item, index) => (index > state.describeIndex ? { ...item, description } : item)),
        describeIndex: state.items.length - 1,
        step: "destination",
      };
    }
    case "went-back":
      if (state.step === "destination") return { ...state, step: "describe" };
      if (state.step === "describe") return state.describeIndex > 0 ? { ...state, describeIndex: state.describeIndex - 1 } : { ...state, step: "pick" };
      return state;
    case "destination-opened":
      return { ...state, destination: action.destination };
    case "reset":
      return initialAddKnowledgeState(action.destination);
  }
}

/** Whether closing would lose something the user chose or typed. */
export const hasUnsavedInput = (state: AddKnowledgeState) => state.items.length > 0 || state.urlDraft.trim() !== "" || state.noteDraft.trim() !== "";
