/**
 * Who made a change: written into every audit entry. Services take it from the admin HTTP layer
 * (http/admin/http.ts builds it from the signed-in account) without depending on that layer.
 */
export interface Actor {
  adminId: string;
  username: string;
  ip: string;
}
