/**
 * How instances of a cluster talk to each other: server-only topics of the MQTT broker
 * (`fieldlink/…`), which the broker's ACL keeps from every device. Best effort (QoS 0): what travels
 * here is real-time news, and a browser reloads the stored state when it reconnects.
 */
export interface ClusterTransport {
  /** This instance, so it can skip its own messages if the broker echoes them. */
  readonly instanceId: string;
  publish(topic: string, payload: string): Promise<void>;
  subscribe(topic: string, onMessage: (payload: Buffer) => void): Promise<void>;
}

export const CLUSTER_TOPICS = {
  /** Device events stored by one instance, for the browsers on the others. */
  events: 'fieldlink/events',
  /** Command replies: the instance that stored a reply may not be the one waiting for it. */
  replies: 'fieldlink/replies',
  /** Changes of access (sign-outs, revoked tokens, moves): every instance's sockets follow them. */
  access: 'fieldlink/access',
} as const;
