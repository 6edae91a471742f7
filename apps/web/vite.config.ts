import { fileURLToPath, URL } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiProxy = { "/api": { target: "http://127.0.0.1:5000", changeOrigin: true } };

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  // The SAGE server's default address (apps/server PORT 5000).
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Lists every chunk, so the service worker can precache lazily loaded pages for offline starts.
    manifest: "asset-manifest.json",
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks for what every page uses; the rest (markdown, date handling...)
        // goes with the lazily loaded pages that need it, so the login page stays small.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            { name: "radix", test: /node_modules[\\/](@radix-ui|@floating-ui|radix-ui)[\\/]/, priority: 2 },
          ],
        },
      },
    },
  },
});
