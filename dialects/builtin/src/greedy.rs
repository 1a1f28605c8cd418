//! The greedy pattern driver: applies rewrite patterns and folders until a fixed point or a cap.
