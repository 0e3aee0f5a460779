/** The local annotation UI: a queue of records (most uncertain first), a session that records decisions, a server. */
export { AnnotationQueue, type Decision, type QueueItem, StaleDecisionError } from "./queue.js";
export { type AnnotationServer, startAnnotationServer } from "./server.js";
export {
  type AnnotationSession,
  createSession,
  type DecisionSink,
  languagePieces,
  type Piece,
  type RecordView,
  type SessionOptions,
  type SessionState,
} from "./session.js";
