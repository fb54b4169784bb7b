package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.extern.Digest;
import dev.rmtemu.model.runtime.Phv;

/**
 * Receives the learning digests the ingress deparser sends ({@link Digest}): called on the
 * engine thread, once per packet whose digest_type selects a digest, at the cycle the
 * deparser finishes; the fields' values are read from {@code phv} during the call.
 */
@FunctionalInterface
public interface DigestSink {
    void digest(long cycle, int pipe, Digest digest, Phv phv);
}
