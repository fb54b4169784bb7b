/**
 * What a run leaves behind: report.json and resources.json, the latency histograms, report.html
 * with its charts, the results' CSV tables, saved registers, and experiments' plots.
 */
package dev.rmtemu.emulator.output;
