// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ITestERC20 {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function transfer(address to, uint256 amount) external returns (bool);
}

/// A swap route for tests: in one transaction the caller pays `amountIn` of `tokenIn` and
/// receives `amountOut` of `tokenOut` from the route's own balance, the shape of the trade a
/// partner's wallet sends (one address spends USDG and receives the stock token). It reverts
/// when the route cannot pay out, which gives a mined revert whose calldata names the trade.
contract TestSwapRoute {
    function swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut) external {
        require(ITestERC20(tokenIn).transferFrom(msg.sender, address(this), amountIn), "pay in");
        require(ITestERC20(tokenOut).transfer(msg.sender, amountOut), "pay out");
    }
}
