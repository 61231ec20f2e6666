// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Reference V2 vault suite for tests, each contract placed at its registry address. The
/// view functions are the read surface the service's V2 status uses; the setters are
/// test-only levers (the runtime code is copied with hardhat_setCode, so there are no
/// constructors).

contract TestVaultV2 {
    bool public paused;
    bool public queueActive;
    uint256 public totalAssets;
    uint256 public totalSupply;
    uint256 public usdgCash;
    uint256 public pendingRedeemCount;
    address[] private held;
    uint256 private pps;
    uint8 private ppsAgg;
    bytes32[] private timelockIds;
    string[] private timelockLabels;
    uint64[] private timelockEtas;

    function setState(bool paused_, bool queueActive_, uint256 totalAssets_, uint256 totalSupply_, uint256 usdgCash_) external {
        paused = paused_;
        queueActive = queueActive_;
        totalAssets = totalAssets_;
        totalSupply = totalSupply_;
        usdgCash = usdgCash_;
    }

    function setHeldAssets(address[] calldata tokens) external {
        held = tokens;
    }

    function setPricePerShare(uint256 pps_, uint8 agg) external {
        pps = pps_;
        ppsAgg = agg;
    }

    function addTimelockOp(bytes32 id, string calldata label, uint64 eta) external {
        timelockIds.push(id);
        timelockLabels.push(label);
        timelockEtas.push(eta);
    }

    function heldAssetCount() external view returns (uint256) {
        return held.length;
    }

    function heldAssets(uint256 i) external view returns (address) {
        return held[i];
    }

    function pricePerShare() external view returns (uint256, uint8) {
        return (pps, ppsAgg);
    }

    function pendingTimelockOps() external view returns (bytes32[] memory, string[] memory, uint64[] memory) {
        return (timelockIds, timelockLabels, timelockEtas);
    }
}

contract TestRequestQueue {
    bool public paused;
    uint256 public pendingCount;
    uint256 public pendingDepositUsdg;
    uint256 public pendingRedemptionShares;

    function setState(bool paused_, uint256 count, uint256 depositUsdg, uint256 redemptionShares) external {
        paused = paused_;
        pendingCount = count;
        pendingDepositUsdg = depositUsdg;
        pendingRedemptionShares = redemptionShares;
    }
}

contract TestBatchSettler {
    bool public settlementActive;
    bool public keeperActive;
    bool public rebalanceActive;

    function setFlags(bool settlement, bool keeper, bool rebalance) external {
        settlementActive = settlement;
        keeperActive = keeper;
        rebalanceActive = rebalance;
    }
}

contract TestLiveness {
    uint8 private state;
    bool private executionAllowed;
    bool private displayAllowed;
    uint256 private ageSeconds;
    uint256 private producedBlocks;
    string private reason;

    function setLiveness(uint8 state_, bool execution, bool display, uint256 age, uint256 blocks, string calldata reason_) external {
        state = state_;
        executionAllowed = execution;
        displayAllowed = display;
        ageSeconds = age;
        producedBlocks = blocks;
        reason = reason_;
    }

    function liveness() external view returns (uint8, bool, bool, uint256, uint256, uint256, string memory) {
        return (state, executionAllowed, displayAllowed, block.chainid, ageSeconds, producedBlocks, reason);
    }
}

contract TestPriceMeshV2 {
    struct Capacity {
        bool known;
        uint256 notionalUsdg;
        uint8 zeroReason;
    }

    mapping(address => Capacity) private buy;
    mapping(address => Capacity) private sell;

    function setCapacity(address token, bool buySide, bool known, uint256 notionalUsdg, uint8 zeroReason) external {
        if (buySide) buy[token] = Capacity(known, notionalUsdg, zeroReason);
        else sell[token] = Capacity(known, notionalUsdg, zeroReason);
    }

    function maxSafeBuyNotionalUsdg(address token) external view returns (bool, uint256, uint8) {
        Capacity memory c = buy[token];
        return (c.known, c.notionalUsdg, c.zeroReason);
    }

    function maxSafeSellNotionalUsdg(address token) external view returns (bool, uint256, uint8) {
        Capacity memory c = sell[token];
        return (c.known, c.notionalUsdg, c.zeroReason);
    }
}

contract TestV2RiskPolicy {
    mapping(address => uint8) private modes;
    mapping(address => mapping(uint8 => uint8)) private fuses;

    function setExecutionMode(address token, uint8 mode) external {
        modes[token] = mode;
    }

    function setLimitingFuse(address token, uint8 side, uint8 fuse) external {
        fuses[token][side] = fuse;
    }

    function executionMode(address token) external view returns (uint8) {
        return modes[token];
    }

    function limitingFuse(address token, uint8 side) external view returns (uint8) {
        return fuses[token][side];
    }
}

contract TestV2ReceiptRegistry {
    mapping(uint8 => uint256) private counts;

    function setReceiptCount(uint8 stage, uint256 count) external {
        counts[stage] = count;
    }

    function receiptCountByStage(uint8 stage) external view returns (uint256) {
        return counts[stage];
    }
}

contract TestV2AssetRegistry {
    mapping(address => bool) private enabled;

    function setEnabled(address token, bool on) external {
        enabled[token] = on;
    }

    function isEnabled(address token) external view returns (bool) {
        return enabled[token];
    }
}

contract TestV2ExecutionAdapter {
    function adapterKind() external pure returns (bytes32) {
        return keccak256("svc-test-execution-adapter");
    }
}
