import FuzzHarness

#if WAYFINDER_FUZZING
// Built by scripts/fuzz.sh with -sanitize=fuzzer,address -DWAYFINDER_FUZZING. SwiftPM links an
// executable's entry point under the name `fuzz_request_main`; here it hands over to libFuzzer's driver.
import CLibFuzzer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzHarness.fuzzOne(data, size, FuzzHarness.request)
}

@_cdecl("fuzz_request_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput)
}
#else
// A normal build: a main that replays saved inputs (`swift run fuzz-request Fuzz/regressions/request`).
@main enum Replay {
    static func main() { FuzzHarness.replayMain("fuzz-request", FuzzHarness.request) }
}
#endif
