import type { ReactNode } from "react";

/** A titled page frame for screens a later issue fills in. */
export function PagePlaceholder({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-6xl p-6">
      <h1 className="mb-4 text-2xl font-bold">{title}</h1>
      {children}
    </div>
  );
}
