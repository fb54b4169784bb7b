package dev.rmtemu.model.extern;

/**
 * How an LPF cell filters, as bf-runtime's {@code $LPF_SPEC_TYPE} names it: SAMPLE averages the
 * samples (an exponentially weighted moving average in time), RATE integrates them (a sum that
 * decays with the time constant, so a steady input gives its rate times the time constant).
 */
public enum LpfType {
    SAMPLE,
    RATE
}
