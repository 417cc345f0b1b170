import Foundation

/// CPU seconds (user + system, all threads) this process has used so far, for the timings commands print on stderr.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
