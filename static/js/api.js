// The HTTP side of the protocol: create a room, list public rooms, read one room.
// Every failure becomes an ApiError carrying the server's code, message and field.

export class ApiError extends Error {
  constructor(status, { code, message, field } = {}) {
    super(message || `request failed (${status})`);
    this.status = status;
    this.code = code || (status === 0 ? "network" : "http_error");
    this.field = field || null;
  }
}

async function request(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, { code: "network", message: "the server cannot be reached" });
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, data && typeof data === "object" ? data : {
      message: `the server answered ${response.status} ${response.statusText}`.trim(),
    });
  }
  return data;
}

/** POST /api/rooms → {room_id, public, rules, version, links}. */
export const createRoom = (rules, isPublic) => request("POST", "/api/rooms", { rules, public: isPublic });

/** GET /api/rooms → [{room_id, rules, status, players, seats, spectators, version}]. */
export const listRooms = async () => (await request("GET", "/api/rooms")).rooms || [];

/** GET /api/rooms/{id} → the snapshot. */
export const getRoom = (roomId) => request("GET", `/api/rooms/${encodeURIComponent(roomId)}`);
