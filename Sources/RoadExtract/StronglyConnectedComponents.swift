import RoadNetwork

/// Tarjan's algorithm, iterative so deep graphs cannot overflow the stack.
struct StronglyConnectedComponents {
    var component: [Int32]
    var count: Int

    init(firstOut: [UInt32], target: [ArcID]) {
        let n = firstOut.count - 1
        var index = [Int32](repeating: -1, count: n)
        var low = [Int32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var stack: [Int32] = []
        component = [Int32](repeating: -1, count: n)
        count = 0
        var next: Int32 = 0
        var callStack: [(node: Int32, edge: Int)] = []
        for root in 0..<n where index[root] < 0 {
            callStack.append((Int32(root), Int(firstOut[root])))
            index[root] = next; low[root] = next; next += 1
            stack.append(Int32(root)); onStack[root] = true
            while let (v, e) = callStack.last {
                let vi = Int(v)
                if e < Int(firstOut[vi + 1]) {
                    callStack[callStack.count - 1].edge += 1
                    let w = Int(target[e].rawValue)
                    if index[w] < 0 {
                        index[w] = next; low[w] = next; next += 1
                        stack.append(Int32(w)); onStack[w] = true
                        callStack.append((Int32(w), Int(firstOut[w])))
                    } else if onStack[w] {
                        low[vi] = min(low[vi], index[w])
                    }
                } else {
                    callStack.removeLast()
                    if let parent = callStack.last { low[Int(parent.node)] = min(low[Int(parent.node)], low[vi]) }
                    if low[vi] == index[vi] {
                        while true {
                            let w = Int(stack.removeLast())
                            onStack[w] = false
                            component[w] = Int32(count)
                            if w == vi { break }
                        }
                        count += 1
                    }
                }
            }
        }
    }
}
