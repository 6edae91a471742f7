import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { apiFetch } from "@/lib/api-client";
import { conversationsQueryKey } from "../api/get-conversations";

/**
 * Opening a conversation reads what a scheduled run wrote in it (decision 041): it is marked read when opened and
 * again when new messages arrive while it is open, and the list drops its unread mark.
 */
export function useMarkRead(id: string, messageCount: number | undefined) {
  const queryClient = useQueryClient();
  const marked = useRef<string | null>(null);
  useEffect(() => {
    if (!/^\d+$/.test(id) || messageCount === undefined) return;
    const listed = queryClient.getQueryData<{ id: number; unread?: true }[]>(conversationsQueryKey);
    // Known to be read already: nothing to tell the server. Opened without the list (a link): marked once, not
    // again at every message of the user's own turn.
    if (listed ? !listed.some((item) => item.id === Number(id) && item.unread) : marked.current === id) return;
    marked.current = id;
    void apiFetch(`/api/conversations/${id}/read`, { method: "POST" })
      .then(() => queryClient.invalidateQueries({ queryKey: conversationsQueryKey, exact: true }))
      .catch(() => undefined); // a mark that did not stick shows again next time; nothing the user must act on
  }, [id, messageCount, queryClient]);
}
