package dev.rmtemu.programs.lossradar.control;

/** Why packets were lost, as LossRadar's analyzer (paper §5) classifies them. */
public enum RootCause {
    CONGESTION, BLACKHOLE, RANDOM,
    /** Non-bursty losses that are neither blackholes nor spread enough to be random drops. */
    UNCLASSIFIED
}
