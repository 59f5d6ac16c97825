// A rolldown plugin for the CLI bundle: `@ai-sdk/provider-utils`' `withUserAgentSuffix`, which
// the SDK calls for every request it posts, builds a web `Headers` object each time (undici,
// loaded by its first use); the bundle's copy calls src/model/user-agent-suffix.ts instead,
// which returns the same object without one for plain headers. The SDK's function is matched
// whole: if an update changes it, the build stops here, for someone to check ours still gives
// what the new one does (test/model/user-agent-suffix.test.ts compares them).
import { fileURLToPath } from 'node:url';

const ORIGINAL = `function withUserAgentSuffix(headers, ...userAgentSuffixParts) {
  const normalizedHeaders = new Headers(normalizeHeaders(headers));
  const currentUserAgentHeader = normalizedHeaders.get("user-agent") || "";
  normalizedHeaders.set(
    "user-agent",
    [currentUserAgentHeader, ...userAgentSuffixParts].filter(Boolean).join(" ")
  );
  return Object.fromEntries(normalizedHeaders.entries());
}`;

const OURS = fileURLToPath(new URL('../dist/model/user-agent-suffix.js', import.meta.url));

export function sdkUserAgentPlugin() {
  let patched = 0;
  return {
    name: 'sdk-user-agent',
    buildStart() {
      patched = 0;
    },
    transform(code, id) {
      if (!/[\\/]@ai-sdk[\\/]provider-utils[\\/]dist[\\/]index\.mjs$/.test(id)) return null;
      if (!code.includes(ORIGINAL)) {
        this.error(`${id}: withUserAgentSuffix is not the one scripts/sdk-user-agent-plugin.mjs replaces; check src/model/user-agent-suffix.ts against the new one and update ORIGINAL`);
      }
      patched += 1;
      const replacement = 'function withUserAgentSuffix(headers, ...userAgentSuffixParts) {\n  return agentmarkWithUserAgentSuffix(headers, ...userAgentSuffixParts);\n}';
      return { code: `import { withUserAgentSuffix as agentmarkWithUserAgentSuffix } from ${JSON.stringify(OURS)};\n${code.replace(ORIGINAL, replacement)}`, map: null };
    },
    buildEnd(error) {
      if (!error && patched === 0) this.error('no @ai-sdk/provider-utils in the bundle had its withUserAgentSuffix replaced');
    },
  };
}
