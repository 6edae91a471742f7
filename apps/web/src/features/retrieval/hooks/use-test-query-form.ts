import { useState, type FormEvent } from "react";

/** A test page's query box: a blank query is never sent, nor a second one while the first is pending. */
export function useTestQueryForm(send: { mutate: (query: string) => void; isPending: boolean }) {
  const [query, setQuery] = useState("");
  const blank = !query.trim();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (blank || send.isPending) return;
    send.mutate(query.trim());
  }

  return { query, setQuery, blank, onSubmit };
}
