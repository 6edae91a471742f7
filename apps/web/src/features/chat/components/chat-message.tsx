import { cn } from "@/lib/cn";
import { MarkdownMessage } from "./markdown-message";

/** One chat bubble; the detail screen calls the model's role `ai`. */
export function ChatMessage({ role, content, streaming }: { role: "user" | "ai"; content: string; streaming?: boolean }) {
  return (
    <li data-testid="chat-message" data-role={role} data-streaming={streaming ? "true" : undefined} className={cn("flex", role === "user" ? "justify-end" : "justify-start")}>
      <div
        className={cn(
          "max-w-[85%] rounded-2xl px-4 py-2 text-sm shadow-xs",
          role === "user" ? "whitespace-pre-wrap bg-primary text-primary-foreground" : "bg-muted text-foreground",
        )}
      >
        <span className="sr-only">{role === "user" ? "You: " : "SAGE: "}</span>
        {role === "user" ? content : <MarkdownMessage content={content} />}
      </div>
    </li>
  );
}
