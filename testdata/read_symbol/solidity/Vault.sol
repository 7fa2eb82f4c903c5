// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "./IERC20.sol";

uint256 constant MAX_FEE = 1000;

type Price is uint128;

error Unauthorized(address caller);

struct Position {
    uint256 amount;
    uint64 since;
}

function feeOf(uint256 amount) pure returns (uint256) {
    return amount * MAX_FEE / 10000;
}

interface IVault {
    event Deposited(address indexed who, uint256 amount);

    function deposit(uint256 amount) external;
    function balanceOf(address who) external view returns (uint256);
}

library Math {
    function min(uint256 a, uint256 b) internal pure returns (uint256) {
        return a < b ? a : b;
    }
}

abstract contract Owned {
    address public immutable owner;

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        _;
    }

    constructor(address owner_) {
        owner = owner_;
    }
}

contract Vault is Owned, IVault {
    using Math for uint256;

    enum State { Open, Closed }

    struct Account {
        uint256 balance;
        State state;
    }

    uint256 public constant VERSION = 2;
    uint256 private total;
    mapping(address => Account) private accounts;

    event Closed(address indexed who);

    constructor() Owned(msg.sender) {}

    function deposit(uint256 amount) external override {
        accounts[msg.sender].balance += amount;
        total += amount;
        emit Deposited(msg.sender, amount);
    }

    function balanceOf(address who) external view returns (uint256) {
        return accounts[who].balance;
    }

    function close(address who) external onlyOwner {
        accounts[who].state = State.Closed;
        emit Closed(who);
    }

    receive() external payable {}

    fallback() external payable {}
}
