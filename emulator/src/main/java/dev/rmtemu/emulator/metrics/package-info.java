/**
 * Run metrics: HdrHistogram latency histograms in ns (emulated latency, queueing delay per
 * port/queue, and host processing time, kept apart because it depends on the machine),
 * their percentile summaries and {@code .hgrm} files, and the packet counters with the
 * conservation check {@code in = out + dropped + queued}.
 */
package dev.rmtemu.emulator.metrics;
