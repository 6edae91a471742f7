import { useMutation, useQueryClient } from "@tanstack/react-query";
import { knowledgeItemSchema } from "@sage/contracts/knowledge";
import { apiRequest } from "@/lib/api-client";
import { knowledgeKeys } from "./knowledge-keys";
import { sessionUserId } from "@/lib/session-user-id";

export const createFolder = (input: { name: string; parentId: number; parentPath: string }) =>
  apiRequest("/api/folders", {
    method: "POST",
    body: {
      name: input.name,
      type: "folder",
      userId: sessionUserId(),
      conversationId: 0,
      parentId: input.parentId,
      path: input.parentPath ? `${input.parentPath}/${input.name}` : input.name,
    },
    schema: knowledgeItemSchema,
  });

export const updateItem = (id: number, body: { name?: string; parentId?: number; description?: string }) =>
  apiRequest(`/api/files/${id}`, { method: "PATCH", body, schema: knowledgeItemSchema });

export const deleteItem = (id: number) => apiRequest(`/api/files/${id}`, { method: "DELETE" });

export const retryItem = (id: number) => apiRequest(`/api/files/${id}/retry`, { method: "POST", body: {}, schema: knowledgeItemSchema });

/** Every knowledge list (system tree, folders, conversation files) is refreshed after a change. */
function useInvalidateKnowledge() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: knowledgeKeys.all });
}

export function useCreateFolder() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({ mutationFn: createFolder, onSuccess: invalidate });
}

export function useUpdateItem() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: (input: { id: number; changes: Parameters<typeof updateItem>[1] }) => updateItem(input.id, input.changes),
    onSuccess: invalidate,
  });
}

export function useDeleteItem() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({ mutationFn: deleteItem, onSuccess: invalidate });
}

export function useRetryItem() {
  const invalidate = useInvalidateKnowledge();
  return useMutation({ mutationFn: retryItem, onSuccess: invalidate });
}
