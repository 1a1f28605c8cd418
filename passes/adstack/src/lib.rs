//! determine-ad-stack-size: Bellman-Ford on the CFG, then a symbolic SizeExpr bound per adstack
