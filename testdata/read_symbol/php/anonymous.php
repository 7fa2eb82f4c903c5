<?php

namespace App {
    abstract class Handler
    {
        abstract public function handle(array $event): void;
    }

    $logger = new class extends Handler {
        public function handle(array $event): void
        {
        }
    };
}
