// The service worker: shows the server's Web Push messages and opens their room on a click.
// It is served from the site's root so that its scope is the whole site (a click may open
// any room's page), and it does nothing else: no caching, no fetch handler, so every page
// still comes from the server as it is. A message is one JSON object (docs/protocol.md, Web
// Push): {kind, room_id, version, title, body, url, tag}.

const ICON = "/favicon.svg";

/** The notification a message asks for, or null for one this worker cannot read. */
function noticeOf(data) {
  if (!data || typeof data !== "object" || typeof data.title !== "string") return null;
  const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/";
  return {
    title: data.title,
    options: {
      body: typeof data.body === "string" ? data.body : "",
      tag: typeof data.tag === "string" ? data.tag : undefined,
      icon: ICON,
      data: { url, kind: data.kind, room_id: data.room_id, version: data.version },
    },
  };
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = null;
  try {
    data = event.data ? event.data.json() : null;
  } catch {
    data = null;
  }
  const notice = noticeOf(data);
  if (!notice) return;
  event.waitUntil(self.registration.showNotification(notice.title, notice.options));
});

/** Focus a tab already on `url`, else open one. */
async function openRoom(url) {
  const target = new URL(url, self.location.origin).href;
  const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = tabs.find((tab) => tab.url === target);
  if (open) return open.focus();
  return self.clients.openWindow(target);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openRoom(event.notification.data?.url || "/"));
});
